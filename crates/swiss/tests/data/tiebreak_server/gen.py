# Generates Swiss-like events with withdrawals, disqualifications, byes and forfeits as TRF-16.
import random, sys, os
def line(rank, name, rating, pts, rounds):
    s = "001 %4d %s%3s %-33s %4s %3s %11s %10s %4s %4s" % (rank, " ", "", name, rating, "", "", "", "%.1f" % pts, "")
    last = max([i+1 for i,e in enumerate(rounds) if e is not None] or [0])
    for e in rounds[:last]:
        if e is None: s += "          "
        else:
            opp, col, res = e
            o = "    " if opp is None else "%4d" % opp
            s += "  %s %s %s" % (o, col, res)
    return s.rstrip()
PTS = {'1':1,'=':.5,'0':0,'+':1,'-':0,'H':.5,'F':1,'U':1,'Z':0,' ':0}
def event(seed, n, R):
    rnd = random.Random(seed)
    entries = {p: [None]*R for p in range(1, n+1)}
    gone = {}  # player -> round from which he is not paired (withdrawn/dq)
    for p in rnd.sample(range(1, n+1), rnd.randint(1, 2)):
        gone[p] = rnd.randint(2, R)  # not paired from this round
    for r in range(1, R+1):
        active = [p for p in range(1, n+1) if gone.get(p, R+1) > r]
        # requested byes
        for p in list(active):
            x = rnd.random()
            if x < 0.08: entries[p][r-1] = (0, '-', 'H'); active.remove(p)
            elif x < 0.11: entries[p][r-1] = (0, '-', 'Z'); active.remove(p)
            elif x < 0.13: entries[p][r-1] = (0, '-', 'F'); active.remove(p)
        rnd.shuffle(active)
        if len(active) % 2:
            # The pairing-allocated bye goes to a player who has not had it.
            p = next((q for q in reversed(active) if all(e is None or e[2] != 'U' for e in entries[q])), active[-1])
            active.remove(p); entries[p][r-1] = (0, '-', 'U')
        for i in range(0, len(active), 2):
            w, b = active[i], active[i+1]
            x = rnd.random()
            if x < 0.06: rw, rb = '+', '-'
            elif x < 0.12: rw, rb = '-', '+'
            elif x < 0.15: rw, rb = '-', '-'
            elif x < 0.50: rw, rb = '1', '0'
            elif x < 0.75: rw, rb = '0', '1'
            else: rw, rb = '=', '='
            entries[w][r-1] = (b, 'w', rw); entries[b][r-1] = (w, 'b', rb)
        for p in range(1, n+1):
            if entries[p][r-1] is None and gone.get(p, R+1) <= r and rnd.random() < 0.5:
                entries[p][r-1] = (0, '-', '-')  # written as absent, not paired
    out = ["012 Test event %d" % seed, "XXR %d" % R]
    for p in range(1, n+1):
        pts = sum(PTS[e[2]] for e in entries[p] if e is not None)
        out.append(line(p, "Player %02d" % p, 2200 - 37*p, pts, entries[p]))
    return "\n".join(out) + "\n", gone
os.makedirs(sys.argv[1], exist_ok=True)
for k, (n, R) in enumerate([(13, 5), (8, 4), (11, 6), (16, 7), (9, 5), (20, 9)]):
    trf, gone = event(1000 + k, n, R)
    open(os.path.join(sys.argv[1], "event%d.trf" % (k+1)), "w").write(trf)
    print(k+1, "gone:", gone)
