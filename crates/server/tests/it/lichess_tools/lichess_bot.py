# lichess-bot, unchanged, against a qiyuan server: configured only (a config
# file and an engine wrapper written here, in a scratch folder), its engine
# qiyuan's own UCI engine. A person (a Board API client) challenges it and
# plays random legal moves to the end; then another bot (a Bot API client)
# does the same. lichess-bot plays with `concurrency: 1`, so the second game
# starts only if the first one's slot was freed.
#
# stdin: {"base", "bot", "person", "rival", "vendor", "work", "qiyuan"}
# stdout: one JSON object: the games as each side saw them, the records
# lichess-bot wrote, and whether lichess-bot was still running at the end.

import json
import os
import random
import signal
import subprocess
import sys
import time

import berserk
import chess
import requests

inp = json.load(sys.stdin)
base, work, vendor = inp["base"], inp["work"], inp["vendor"]
random.seed(47)

# The engine: `qiyuan engine` behind a wrapper (lichess-bot runs an engine by
# path; the level comes from lichess-bot's `engine_options`).
wrapper = os.path.join(work, "qiyuan-uci")
with open(wrapper, "w") as f:
    f.write(f'#!/bin/sh\nexec "{inp["qiyuan"]}" engine --game chess "$@"\n')
os.chmod(wrapper, 0o755)
records = os.path.join(work, "records")
config = f"""
token: "{inp["bot"]}"
url: "{base}/"
engine:
  dir: "{work}"
  name: "qiyuan-uci"
  protocol: "uci"
  ponder: false
  engine_options:
    level: 2
  uci_options: {{}}
  draw_or_resign:
    resign_enabled: false
    offer_draw_enabled: false
  online_moves:
    chessdb_book: {{enabled: false}}
    lichess_cloud_analysis: {{enabled: false}}
    lichess_opening_explorer: {{enabled: false}}
    online_egtb: {{enabled: false}}
  lichess_bot_tbs:
    syzygy: {{enabled: false}}
    gaviota: {{enabled: false}}
abort_time: 180
move_overhead: 500
challenge:
  concurrency: 1
  accept_bot: true
  variants: [standard]
  time_controls: [bullet, blitz, rapid, classical]
  modes: [casual, rated]
  max_increment: 180
  max_base: 10800
greeting:
  hello: "Hi {{opponent}}, I am {{me}}."
  goodbye: "Good game!"
pgn_directory: "{records}"
pgn_file_grouping: "game"
matchmaking:
  allow_matchmaking: false
"""
cfg = os.path.join(work, "config.yml")
with open(cfg, "w") as f:
    f.write(config)

log = open(os.path.join(work, "lichess-bot.out"), "w")
bot = subprocess.Popen(
    [sys.executable, os.path.join(vendor, "lichess-bot.py"), "--config", cfg, "-v",
     "--disable_auto_logging"],
    cwd=work, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def fail(why):
    os.killpg(bot.pid, signal.SIGKILL)
    log.flush()
    tail = open(os.path.join(work, "lichess-bot.out")).read()[-6000:]
    print(json.dumps({"error": why, "log": tail}))
    sys.exit(0)


# lichess-bot is up once qiyuan says it is online (its event stream open).
deadline = time.time() + 90
while True:
    r = requests.get(f"{base}/api/users/status", params={"ids": "lbot"}, timeout=5)
    if r.ok and r.json() and r.json()[0].get("online"):
        break
    if bot.poll() is not None:
        fail("lichess-bot quit before going online")
    if time.time() > deadline:
        fail("lichess-bot did not come online")
    time.sleep(0.5)


def play(token, api, name, color):
    """Challenges lichess-bot, waits for the game and plays it to the end
    with random legal moves (resigning past 300 plies)."""
    client = berserk.Client(session=berserk.TokenSession(token), base_url=base)
    made = client.challenges.create("lbot", rated=False, clock_limit=300,
                                    clock_increment=1, color=color)
    game_id = made["id"]
    side = getattr(client, api)
    deadline = time.time() + 60
    while not any(g["gameId"] == game_id for g in client.games.get_ongoing()):
        if time.time() > deadline:
            fail(f"lichess-bot did not accept {name}'s challenge {game_id}")
        if bot.poll() is not None:
            fail("lichess-bot quit")
        time.sleep(0.3)
    mine = None
    plies = 0
    end = None
    started = time.time()
    for event in side.stream_game_state(game_id):
        if time.time() - started > 400:
            fail(f"{name}'s game did not end")
        if event["type"] == "gameFull":
            mine = "white" if event["white"].get("id") == name else "black"
            state = event["state"]
        elif event["type"] == "gameState":
            state = event
        else:
            continue
        if state["status"] != "started":
            end = state
            break
        moves = state["moves"].split()
        plies = len(moves)
        board = chess.Board()
        for m in moves:
            board.push_uci(m)
        if (board.turn == chess.WHITE) != (mine == "white"):
            continue
        if plies >= 300:
            side.resign_game(game_id)
            continue
        move = random.choice(list(board.legal_moves))
        side.make_move(game_id, move.uci())
    return {"challenge": made["id"], "url": made["url"], "game": game_id,
            "status": end and end["status"], "winner": end and end.get("winner"),
            "moves": end and end["moves"], "color": mine}


games = [play(inp["person"], "board", "ann", "white"),
         play(inp["rival"], "bots", "rival", "random")]

# lichess-bot writes each game's record (from /game/export/{id}) once it ends.
deadline = time.time() + 30
wanted = {g["game"] for g in games}
found = {}
while time.time() < deadline:
    if os.path.isdir(records):
        for name in os.listdir(records):
            for g in wanted:
                if name.endswith(f" - {g}.pgn"):
                    found[g] = open(os.path.join(records, name)).read()
    if set(found) == wanted:
        break
    time.sleep(0.3)

running = bot.poll() is None
os.killpg(bot.pid, signal.SIGTERM)
try:
    bot.wait(10)
except subprocess.TimeoutExpired:
    os.killpg(bot.pid, signal.SIGKILL)
log.flush()
out = open(os.path.join(work, "lichess-bot.out")).read()
print(json.dumps({"games": games, "records": found, "running": running,
                  "tracebacks": out.count("Traceback"), "log": out[-4000:]}))
