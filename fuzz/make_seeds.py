#!/usr/bin/env python3
"""Writes the committed seed corpora (fuzz/seeds/TARGET/NAME): small, hand-picked
inputs from which libFuzzer starts. Rerun after editing; the files are committed."""
import os, shutil

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "shared", "data")
seeds = {}

def add(target, name, data):
    seeds.setdefault(target, {})[name] = data.encode() if isinstance(data, str) else data

CHESS_FENS = {
    "start": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "ep": "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "promo": "8/P6k/8/8/8/8/6Kp/8 w - - 0 60",
    "castle960": "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
    "late": "4k3/8/8/8/8/8/4P3/4K3 b - - 99 130",
}
for k, v in CHESS_FENS.items():
    add("chess_fen", k, v)
add("chess_fen", "short", "8/8/8/8/8/8/8/K6k w")

OPERA = """[Event "Paris"]
[Site "Paris FRA"]
[Date "1858.??.??"]
[White "Paul Morphy"]
[Black "Duke Karl / Count Isouard"]
[Result "1-0"]

1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7
8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7
14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0
"""
ANNOTATED = """[Event "Annotated"]
[White "A"]
[Black "B"]
[Result "1/2-1/2"]

{ A comment before the moves. } 1. e4 $1 e5!? (1... c5 2. Nf3 (2. c3) d6) 2. Nf3
{ [%clk 0:05:00] [%eval 0.3] } 2... Nc6 ; a rest-of-line comment
3. Bb5 a6?! 4. Ba4 (4. Bxc6 dxc6 { the exchange variation }) Nf6 1/2-1/2
"""
FROMFEN = """[Event "?"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 30"]
[Result "*"]

30... Kd7 31. e4 Kc6 32. e5=Q *

[Event "second"]

1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. cxd5 exd5 5. Bg5 Be7 0-1
"""
add("chess_pgn", "opera", OPERA)
add("chess_pgn", "annotated", ANNOTATED)
add("chess_pgn", "fromfen", FROMFEN)
add("chess_pgn", "fen", CHESS_FENS["ep"])

XQ_START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
XQ_FENS = {
    "start": XQ_START,
    "endgame": "3k4r/9/9/9/9/9/9/9/9/R4K3 b - - 0 1",
    "red_r": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r",
    "soldiers": "4ka3/4a4/9/9/2P1P1P2/9/9/9/4p4/3K5 w - - 5 40",
    "prefixed": "fen 3ak4/9/9/9/9/9/9/9/4A4/4K4 w",
}
for k, v in XQ_FENS.items():
    add("xiangqi_fen", k, v)

add("xiangqi_notation", "iccs", XQ_START + "\nh2e2\nH9-G7\nh0g2\ni9h9\nb0c2\nb9c7\n")
add("xiangqi_notation", "wxf", XQ_START + "\nC2=5\nH8+7\nH2+3\nR9=8\nR1=2\nC8.2\n+C+1\n")
add("xiangqi_notation", "chinese", XQ_START + "\n炮二平五\n马８进７\n马二进三\n车９平８\n车一平二\n炮８进４\n兵七进一\n前炮平四\n")
add("xiangqi_notation", "tandem", "4k4/9/9/2P1P1P2/9/9/9/9/9/4K4 w\n前兵平五\n中兵进一\n+P=4\n二兵进一\n")

XQ_PGN_ICCS = """[Game "Chinese Chess"]
[Event "Club \\"open\\""]
[Red "甲"]
[Black "乙"]
[Format "ICCS"]

1. H2-E2 {centre cannon} H9-G7 (1... H7-E7) 2. H0-G2 $1 I9-H9 *
"""
XQ_PGN_CN = """[Game "Chinese Chess"]
[Format "Chinese"]
[Result "1-0"]

1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 车一平二 1-0
"""
XQ_PGN_FEN = """[Game "Chinese Chess"]
[Format "WXF"]
[FEN "3k4r/9/9/9/9/9/9/9/9/R4K3 b - - 0 1"]

1... R1-1 2. R9+9 *
"""
add("xiangqi_pgn", "iccs", XQ_PGN_ICCS)
add("xiangqi_pgn", "chinese", XQ_PGN_CN)
add("xiangqi_pgn", "fen", XQ_PGN_FEN)
add("xiangqi_pgn", "bare_fen", XQ_FENS["endgame"])

for g in ("g0001", "g0002"):
    p = os.path.join(SHARED, "go-gnugo", g + ".sgf")
    if os.path.exists(p):
        add("go_sgf", g, open(p, "rb").read())
add("go_sgf", "setup", "(;GM[1]FF[4]SZ[13]KM[0.5]HA[2]AB[dd][jj]AW[gg]PL[W]TM[600]OT[5x30 byo-yomi]RE[W+R];W[gd];B[tt];W[](;B[aa])(;B[bb]))")
add("go_sgf", "comments", "(;FF[4]GM[1]SZ[9]C[a \\] comment]RU[Japanese];B[ee]C[first];W[];B[])")

for f in ("t0001-r01.trf",):
    p = os.path.join(SHARED, "swiss-dutch", f)
    if os.path.exists(p):
        add("swiss_trf", f.replace(".trf", ""), open(p, "rb").read())
add("swiss_trf", "small", """012 Club
XXR 3
001    1 m    Alpha                             2100 ENG     1000001 1980/01/01  1.0    1     2 w 1
001    2 m    Beta                              2000 ENG     1000002 1980/01/01  0.0    2     1 b 0
001    3      Gamma                             1900                                 0.0    3  0000 - U
""")

for name, text in {
    "single": "3", "pair": "33", "straight": "34567", "ten": "10JQKA",
    "rockets": "BR", "bomb": "2222", "plane": "333444 56", "everything": "3456789TJQKA2BR",
    "card": "h3", "lower": "tjqka",
}.items():
    add("doudizhu_cards", name, text)
add("doudizhu_cards", "deal",
    "33334444555566667/77778888999TTTTJ/JJJQQQQKKKKAAAA2/222BR first 1")
add("doudizhu_cards", "seed", "seed 12345 first 2")

ENVELOPES = {
    "ping": '{"t":"ping","id":1}',
    "create": '{"t":"create","d":{"game":"chess","time":{"kind":"fischer","base":300000,"increment":0},"seat":0},"id":1}',
    "move": '{"t":"move","d":{"table":"SUJqmYMq","action":"e2e4"},"id":2}',
    "watch": '{"t":"watch","d":{"table":"SUJqmYMq","since":4},"id":"w"}',
    "propose": '{"t":"propose","d":{"table":"T","seat":1,"settings":{"time":{"kind":"byo_yomi","main":60000,"periods":3,"period":30000},"options":{"size":9,"komi":6.5},"setup":"standard","rated":true}},"id":[1,2]}',
    "bad": '{"t":"sit","d":{"table":"T","seat":"x"},"id":{"n":null}}',
}
for k, v in ENVELOPES.items():
    add("protocol_envelope", k, v)

TYPES = ["ping", "lobby.subscribe", "lobby.unsubscribe", "create", "seek", "seek.cancel", "watch", "unwatch",
         "sit", "stand", "propose", "accept", "ready", "unready", "swap", "move", "draw.offer", "draw.accept",
         "draw.decline", "takeback.request", "takeback.accept", "takeback.decline", "claim", "resign", "abort",
         "leave", "rematch", "add_bot", "remove_bot", "decline", "trusteeship.on", "trusteeship.off"]
DATA = {
    "ping": "null",
    "lobby.subscribe": '{"game":"go"}',
    "lobby.unsubscribe": '{"game":"xiangqi"}',
    "create": '{"game":"go","time":{"kind":"canadian","main":600000,"moves":25,"period":300000},"rated":false,"options":{"size":9},"seat":1,"takebacks":false,"setup":{"position":"(;SZ[9])"}}',
    "seek": '{"game":"chess","time":{"kind":"qq","game":600000,"per_move":60000,"countdown":30000},"rated":true}',
    "seek.cancel": "{}",
    "watch": '{"table":"abc","since":0}',
    "unwatch": '{"table":"abc"}',
    "sit": '{"table":"abc","seat":2}',
    "propose": '{"table":"abc","settings":{"time":{"kind":"none"},"setup":{"position":"seed 1"}}}',
    "accept": '{"table":"abc","proposal":3,"game":"chess","seat":0}',
    "ready": '{"table":"abc","proposal":1}',
    "swap": '{"table":"abc","with":1}',
    "move": '{"table":"abc","action":"炮二平五","game":"xiangqi","seat":0}',
    "claim": '{"table":"abc","claim":"threefold_repetition"}',
    "add_bot": '{"table":"abc","seat":2,"level":"strong"}',
    "remove_bot": '{"table":"abc","seat":2}',
    "decline": '{"table":"abc","proposal":3}',
}
for i, t in enumerate(TYPES):
    add("protocol_command", t.replace(".", "_"), bytes([i]) + DATA.get(t, '{"table":"abc"}').encode())

add("config_toml", "full", """listen = "0.0.0.0:9000"
data_dir = "/var/lib/qiyuan"
database = "postgres://qiyuan@localhost/qiyuan"
escape_grace_secs = 5
first_move_secs = 30.5
idle_table_secs = 600.0
max_message_bytes = 16384
login_attempts_per_minute = 10
session_days = 30
secure_cookies = true
site = "棋苑"
bot_think_ms = 700
""")
add("config_toml", "empty", "")
add("config_toml", "ipv6", "listen = \"[::1]:8080\"\n# a comment\nsite = 'club'\n")

# game_actions: first byte picks the game (0 chess, 1 xiangqi, 2 Go, 3 Doudizhu).
add("game_actions", "chess", b"\x00" + b"e2e4\ne5\nNf3\nNc6\nBb5\na6\nBxc6\ndxc6\nO-O\n@1 resign\n")
add("game_actions", "chess_fen", b"\x04" + b"setup 4k3/P7/8/8/8/8/8/4K3 w - - 0 1\na8=Q+\nKd7\na7a8q\n")
add("game_actions", "xiangqi", b"\x01" + "options {\"move_limit\":60}\n炮二平五\n马8进7\nh0g2\nH9-G7\nR1=2\n".encode())
add("game_actions", "go", b"\x02" + b"options {\"size\":9,\"komi\":6.5,\"handicap\":2,\"ko\":\"positional\"}\nD4\nE5\npass\npass\ndone\n@1 accept\n")
add("game_actions", "go_setup", b"\x02" + b"setup (;SZ[5]AB[aa][bb];W[cc])\nA1\nB2\nresign\n")
add("game_actions", "doudizhu", b"\x03" + b"bid 3\npass\npass\n3\n4\n5\npass\n")
add("game_actions", "doudizhu_deal", b"\x07" + b"setup 33334444555566667/77778888999TTTTJ/JJJQQQQKKKKAAAA2/222BR first 0\n3\npass\n3333\n")

out = os.path.join(HERE, "seeds")
shutil.rmtree(out, ignore_errors=True)
for target, files in seeds.items():
    os.makedirs(os.path.join(out, target), exist_ok=True)
    for name, data in files.items():
        with open(os.path.join(out, target, name), "wb") as f:
            f.write(data)
print({t: len(f) for t, f in seeds.items()})
