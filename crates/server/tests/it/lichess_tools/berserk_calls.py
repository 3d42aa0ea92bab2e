# berserk, unchanged but for its base URL, calls every endpoint docs/api.md
# lists (its own methods where it has one, its requestor where it has none):
# tokens, accounts and users, challenges (declined, canceled, accepted), a
# whole game with draws on one's own turn, takebacks and chat watched by a
# spectator's stream, a seek, a game against the built-in engine, a game won
# by the opponent's leaving, bot accounts' games, and the exports.
#
# stdin: {"base", "alice", "alice_session", "bob", "robo", "rival"} (tokens)
# stdout: {"calls": [[method, path, status]…], "seen": {…}}: every HTTP
# request made, and what the checks below need.

import json
import sys
import threading
import time
from urllib.parse import urlsplit

import berserk
import chess
import requests
from berserk.formats import TEXT
from berserk.exceptions import ResponseError

inp = json.load(sys.stdin)
base = inp["base"]
calls = []
seen = {}


def hook(r, *args, **kwargs):
    calls.append([r.request.method, urlsplit(r.request.url).path, r.status_code])


def client(token=None):
    session = berserk.TokenSession(token) if token else requests.Session()
    session.hooks["response"].append(hook)
    return berserk.Client(session=session, base_url=base)


def refused(call):
    """The status of a call that must be refused."""
    try:
        call()
    except ResponseError as e:
        return e.status_code
    return 200


A, B = client(inp["alice"]), client(inp["bob"])
S = client(inp["alice_session"])
R, V = client(inp["robo"]), client(inp["rival"])
anon = client()


def until(what, check, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise SystemExit(f"timed out waiting for {what}")


class Follow(threading.Thread):
    """A stream read into a list, in a thread."""

    def __init__(self, stream):
        super().__init__(daemon=True)
        self.stream, self.lines = stream, []
        self.start()

    def run(self):
        try:
            for line in self.stream:
                self.lines.append(line)
        except Exception as e:  # the stream ended with its connection
            self.lines.append({"type": "error", "error": str(e)})

    def state(self):
        """The last game state (a gameFull's own)."""
        for line in reversed(self.lines):
            if line.get("type") == "gameState":
                return line
            if line.get("type") == "gameFull":
                return line["state"]
        return None

    def plies(self):
        s = self.state()
        return len(s["moves"].split()) if s else -1


# Tokens: made, listed and revoked with a session; tested; one revoked by itself.
made = S._r.post("/api/token", data={"description": "berserk", "scopes": "board:play"})
other = S._r.post("/api/token", data={"description": "gone", "scopes": "board:play"})
seen["token_list"] = len(S._r.get("/api/token")["tokens"])
S._r.request("DELETE", f"/api/token/{made['id']}", fmt=TEXT)
client(other["access_token"])._r.request("DELETE", "/api/token", fmt=TEXT)
seen["tested"] = A.oauth.test_tokens(inp["alice"], made["access_token"], other["access_token"])

# Accounts and users.
seen["account"] = A.account.get()["username"]
seen["preferences"] = "prefs" in A.account.get_preferences()
seen["email"] = A.account.get_email()
seen["kid"] = A.account.get_kid_mode()
seen["public"] = A.users.get_public_data("bob")["id"]
seen["users_by_ids"] = [u["id"] for u in A.users.get_by_id("alice", "bob", "nosuchuser")]
R.account.upgrade_to_bot()
V.account.upgrade_to_bot()

# Events, from here on.
events = Follow(A.board.stream_incoming_events())
robo_events = Follow(R.bots.stream_incoming_events())
until("the bot's event stream", lambda: any(b["id"] == "robo" for b in anon.bots.get_online_bots()))
seen["online_bots"] = [b["id"] for b in anon.bots.get_online_bots(limit=10)]

# Challenges declined and canceled.
c = A.challenges.create("bob", rated=False, clock_limit=300, clock_increment=3, color="white")
seen["mine"] = [x["id"] for x in B.challenges.get_mine()["in"]] == [c["id"]]
B.challenges.decline(c["id"], reason="later")
c = A.challenges.create("bob", rated=False, clock_limit=300, clock_increment=3, color="white")
A.challenges.cancel(c["id"])

# A whole game: alice (white) and bob, a spectator watching.
c = A.challenges.create("bob", rated=False, clock_limit=300, clock_increment=3, color="white")
B.challenges.accept(c["id"])
g = c["id"]
alice, bob = Follow(A.board.stream_game_state(g)), Follow(B.board.stream_game_state(g))
until("both streams", lambda: alice.state() and bob.state())
watch = Follow(anon.games.stream_game_moves(g))
seen["status"] = A.users.get_realtime_statuses("alice", "bob", "nosuchuser", with_game_ids=True)
A.board.make_move(g, "e2e4")
until("bob sees e2e4", lambda: bob.plies() == 1)
B.board.make_move(g, "e7e5")
until("alice sees e7e5", lambda: alice.plies() == 2)
# A draw offered on one's own turn stands until one's move, then reaches bob.
A.board.offer_draw(g)
seen["own_turn_offer_before_move"] = bob.state()["wdraw"]
A.board.make_move(g, "g1f3")
until("bob sees the offer", lambda: bob.plies() == 3 and bob.state()["wdraw"])
B.board.decline_draw(g)
until("the offer declined", lambda: not alice.state()["wdraw"])
B.board.make_move(g, "b8c6")
until("alice sees b8c6", lambda: alice.plies() == 4)
# Takebacks: bob asks, alice declines; alice moves and asks, bob accepts.
B.board.offer_takeback(g)
until("alice sees the request", lambda: alice.state()["btakeback"])
A.board.decline_takeback(g)
A.board.make_move(g, "f1c4")
until("bob sees f1c4", lambda: bob.plies() == 5)
A.board.offer_takeback(g)
until("bob sees the request", lambda: bob.state()["wtakeback"])
B.board.accept_takeback(g)
until("the move taken back", lambda: alice.plies() == 4)
A.board.make_move(g, "f1b5")
A.board.post_message(g, "have fun")
B.board.post_message(g, "you too", spectator=True)
seen["chat"] = A.board.get_game_chat(g)
seen["current"] = list(anon.games.export_ongoing_by_player("alice"))
seen["claim_too_soon"] = refused(lambda: A.board.claim_victory(g))
until("bob sees f1b5", lambda: bob.plies() == 5)
B.board.offer_draw(g)
B.board.make_move(g, "g8f6")
until("alice sees the offer", lambda: alice.plies() == 6 and alice.state()["bdraw"])
A.board.accept_draw(g)
until("the game ends", lambda: alice.state()["status"] != "started" and bob.state()["status"] != "started")
seen["end"] = alice.state()
until("the spectator's stream ends", lambda: not watch.is_alive())
seen["watched"] = watch.lines
seen["game"] = g

# Exports.
seen["export_json"] = A.games.export(g)
seen["export_pgn"] = A.games.export(g, as_pgn=True)
seen["by_player"] = [x["id"] for x in A.games.export_by_player("alice", max=10)]
seen["games_by_ids"] = [x["id"] for x in A.games.export_multi(g, "nosuchgm")]
seen["games_by_ids_pgn"] = list(A.games.export_multi(g, as_pgn=True))
seen["last"] = list(anon.games.export_ongoing_by_player("alice"))

# A seek paired with another: alice resigns at once (an abort: nobody moved).
seekers = [threading.Thread(target=lambda p=p: p.board.seek(5, 3), daemon=True) for p in (A, B)]
for t in seekers:
    t.start()
sought = until("the seek's game", lambda: [x for x in A.games.get_ongoing() if x["gameId"] != g])
A.board.resign_game(sought[0]["gameId"])
for t in seekers:
    t.join(10)

# Against the built-in engine: aborted before a move.
ai = A.challenges.create_ai(level=1, clock_limit=300, clock_increment=0, color="white")
A.board.abort_game(ai["id"])

# Bob leaves a game after his first move: alice wins when the grace is over.
c = A.challenges.create("bob", rated=False, clock_limit=300, clock_increment=3, color="white")
B.challenges.accept(c["id"])
left = Follow(A.board.stream_game_state(c["id"]))
until("alice's stream", lambda: left.state())
A.board.make_move(c["id"], "d2d4")
B.board.make_move(c["id"], "d7d5")
until("bob gone", lambda: left.state()["status"] == "timeout", timeout=30)
A.board.claim_victory(c["id"])
seen["gone"] = [x for x in left.lines if x.get("type") == "opponentGone"]

# Bot accounts: a rated game robo (white) resigns.
c = R.challenges.create("rival", rated=True, clock_limit=300, clock_increment=3, color="white")
V.bots.accept_challenge(c["id"])
b = c["id"]
robo, rival = Follow(R.bots.stream_game_state(b)), Follow(V.bots.stream_game_state(b))
until("both bot streams", lambda: robo.state() and rival.state())
R.bots.make_move(b, "e2e4")
until("rival sees e2e4", lambda: rival.plies() == 1)
V.bots.make_move(b, "c7c5")
until("robo sees c7c5", lambda: robo.plies() == 2)
R._r.post(f"/api/bot/game/{b}/draw/yes", fmt=TEXT)
R.bots.make_move(b, "g1f3")
until("rival sees the offer", lambda: rival.plies() == 3 and rival.state()["wdraw"])
V._r.post(f"/api/bot/game/{b}/draw/no", fmt=TEXT)
until("the offer declined", lambda: not robo.state()["wdraw"])
R.bots.post_message(b, "good luck")
seen["bot_chat"] = R._r.get(f"/api/bot/game/{b}/chat", fmt=berserk.formats.JSON_LIST)
seen["bot_claim_too_soon"] = refused(lambda: R._r.post(f"/api/bot/game/{b}/claim-victory", fmt=TEXT))
V.bots.make_move(b, "d7d6")
until("robo sees d7d6", lambda: robo.plies() == 4)
R.bots.resign_game(b)
until("the bot game ends", lambda: robo.state()["status"] == "resign")
# A casual one: a takeback asked and declined, then aborted (rival never moved).
c = R.challenges.create("rival", rated=False, clock_limit=300, clock_increment=3, color="white")
V.bots.accept_challenge(c["id"])
R.bots.make_move(c["id"], "d2d4")
R._r.post(f"/api/bot/game/{c['id']}/takeback/yes", fmt=TEXT)
V._r.post(f"/api/bot/game/{c['id']}/takeback/no", fmt=TEXT)
R.bots.abort_game(c["id"])
until("robo's gameFinish", lambda: sum(1 for e in robo_events.lines if e.get("type") == "gameFinish") >= 2)
seen["history"] = R.users.get_rating_history("robo")
seen["events"] = sorted({e.get("type") for e in events.lines})

print(json.dumps({"calls": calls, "seen": seen}, default=str))
