# Games and positions from play by outside references (gnubg-nn 0-ply and pubeval), for training
# the bot's network and for measuring it. Boards are gnubg-nn's: [side not on roll, side on roll],
# 25 counts each (points 1-24, bar). Needs the dev extra (gnubg-nn).

import random

import gnubg_nn


def start_board():
    side = [0] * 25
    for p, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
        side[p - 1] = n
    return [list(side), list(side)]


def is_over(board):
    return sum(board[0]) == 0 or sum(board[1]) == 0


def gnubg_list(board, d1, d2):
    """gnubg-nn 0-ply scores of every play: [(board after, equity for the mover, 5 probs of the
    mover)] best first; board after = [mover, opponent] with the opponent on roll. [] when the
    roll cannot be played."""
    res = gnubg_nn.best_move(board, d1, d2, n=0, list=1)
    out = []
    for key, _steps, probs, equity in res[1]:
        after = [list(s) for s in gnubg_nn.board_from_position_key(key)]
        w, wg, wbg, lg, lbg = probs      # the opponent's (on roll); turn them to the mover's
        out.append((after, equity, (1.0 - w, lg, lbg, wg, wbg)))
    return out


def pubeval_after(board, d1, d2):
    """The board after pubeval's play, [mover, opponent] (the unchanged board swapped when the
    roll cannot be played)."""
    flat = gnubg_nn.pub_best_move(board, d1, d2)
    me = list(board[1])
    them = list(board[0])
    for i in range(0, len(flat), 2):
        s, t = flat[i], flat[i + 1]
        me[s] -= 1
        if t >= 0:
            me[t] += 1
            if them[23 - t] == 1:
                them[23 - t] = 0
                them[24] += 1
    return [me, them]


def decisions(games, seed, explore=0.12, pubeval_share=0.25, dances=False):
    """Plays `games` games and yields (board, d1, d2, scored list) for every roll with two or more
    plays; with `dances`, also (board, d1, d2, None) after every roll that could not be played
    while on the bar (board = [the side that danced, the side now on roll]). Each side is gnubg 0-ply that picks among its top four at random with probability
    `explore`, or (in a share of the games) pubeval, so the positions are those of real play
    with mistakes in it."""
    rng = random.Random(seed)
    for _ in range(games):
        board = start_board()
        pub_side = rng.randrange(2) if rng.random() < pubeval_share else -1
        side = 0
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        while d1 == d2:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        while True:
            scored = gnubg_list(board, d1, d2)
            if not scored:
                board = [board[1], board[0]]
                if dances and board[0][24]:
                    yield board, d1, d2, None
            else:
                if len(scored) > 1:
                    yield board, d1, d2, scored
                if side == pub_side:
                    board = pubeval_after(board, d1, d2)
                elif rng.random() < explore:
                    board = scored[rng.randrange(min(4, len(scored)))][0]
                else:
                    board = scored[0][0]
                if is_over(board):
                    break
            side = 1 - side
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
