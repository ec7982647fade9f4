# The bot's resignations: when to offer one (only a lost race, at the level its gammon chances
# leave no doubt about) and when to accept the opponent's (when it is worth what playing on is).
# Apart from bgcore.cube so that the cube's decisions, made every turn, do not keep this code in
# RAM; loaded when the bot is asked about a resignation.

from bgcore.cube import P, F, X, efficiency, mwc, _aways


# Resigning: only in a race (no more hitting), when the network gives less than 0.6% to win;
# the level is clear when the gammon (backgammon) chance is under 1% or over 90%.
LOST = 200              # in 1/32768
NONE = 328
SURE = 29491


def _gammons_count(match, winner):
    # do gammons change the result of this game for `winner`?
    if match.rules.mode == "match":
        return _aways(match, winner)[0] > match.cube   # else any win ends the match
    return not (match.rules.jacoby and match.owner == -1)


def _seen_by(bot, match, player):
    pr = bot.chances(match.pos)           # of the side on roll
    if match.turn != player:
        w, wg, wb, lg, lb = pr
        return [P - w, lg, lb, wg, wb]
    return pr


def resigns(bot, match, player):
    """None, or the resignation `player` should offer now: 1 (single), 2 (gammon) or 3
    (backgammon) times the cube. Only a race with no chance left to win is given up, and only
    at the level its gammon and backgammon chances leave no doubt about."""
    if efficiency(match.pos) == X:
        return None                         # the sides can still hit: it is not over
    w, wg, wb, lg, lb = _seen_by(bot, match, player)
    if w > LOST:
        return None
    if lg <= NONE or not _gammons_count(match, 1 - player):
        return 1
    if lg >= SURE:
        if lb <= NONE:
            return 2
        if lb >= SURE:
            return 3
    return None


def accepts_resignation(bot, match, player, kind):
    """Does `player` accept the opponent's resignation of `kind` (1-3) times the cube? Yes when
    it is worth at least what playing on is expected to give (cubeless, gammons counted as the
    rules count them)."""
    w, wg, wb, lg, lb = _seen_by(bot, match, player)
    if match.rules.mode == "match":
        a, b = _aways(match, player)
        c = match.cube
        if a <= kind * c:
            return True                     # it wins the match
        post = match.crawford_done
        on = ((w - wg) * mwc(a - c, b, post) + (wg - wb) * mwc(a - 2 * c, b, post)
              + wb * mwc(a - 3 * c, b, post) + (P - w - lg) * mwc(a, b - c, post)
              + (lg - lb) * mwc(a, b - 2 * c, post) + lb * mwc(a, b - 3 * c, post)) // P
        return mwc(a - kind * c, b, post) >= on
    if _gammons_count(match, player):
        on = (2 * w - P + wg + wb - lg - lb) * F // P
    else:
        on = (2 * w - P) * F // P
    return kind * F >= on
