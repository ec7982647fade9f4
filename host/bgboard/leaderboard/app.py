"""The leaderboard's web application (Starlette, ASGI): the JSON API boards and the host tool
use (register, tickets, games) and the pages people read (the boards per level, a game move by
move, a player). It holds an engine and nothing else: every request reads and writes the
database, so several workers behind one database serve the same boards."""

import json
import os
from pathlib import Path

import jinja2
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from bgboard.leaderboard import countries, service
from bgboard.leaderboard.db import engine_for
from bgboard.safetext import number

HERE = Path(__file__).parent
DB_ENV = "BGBOARD_LEADERBOARD_DB"     # how `serve --workers N` hands the URL to each worker
MAX_JSON_BYTES = 16384    # 50 nonce commitments and a little more


async def _body(request, limit):
    """The request body, refused (413) as soon as it passes LIMIT bytes."""
    declared = number(request.headers.get("content-length", ""), 20)
    if declared is not None and declared > limit:
        raise service.Refused(413, "the body is %s bytes; at most %d" % (declared, limit))
    got = bytearray()
    async for chunk in request.stream():
        got += chunk
        if len(got) > limit:
            raise service.Refused(413, "the body is over %d bytes" % limit)
    return bytes(got)


async def _json(request):
    body = await _body(request, MAX_JSON_BYTES)
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise service.Refused(400, "the body is not JSON")
    if not isinstance(data, dict):
        raise service.Refused(400, "the body must be a JSON object")
    return data


# every answer says: nothing runs or loads but this site's own files (a name that slipped past
# the escaping could still not run a script), and no content type is guessed
_HEADERS = [(b"content-security-policy", b"default-src 'self'; img-src 'self'; "
             b"style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; "
             b"frame-ancestors 'none'"),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"same-origin")]


class _SafetyHeaders:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def sending(message):
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + _HEADERS
            await send(message)
        await self.app(scope, receive, sending)


def _refused(_request, exc):
    return JSONResponse(dict(status="rejected", error=exc.reason, **exc.extra),
                        status_code=exc.status)


def build(url=None):
    engine = engine_for(url or os.environ.get(DB_ENV) or None)
    # every value is escaped unless a template says otherwise (only the server's own SVG)
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(HERE / "templates")),
                             autoescape=True)
    templates = Jinja2Templates(env=env)
    templates.env.globals.update(flag=countries.flag, country_name=countries.name,
                                 levels=service.LEVELS)

    async def api_register(request):
        data = await _json(request)
        key = await run_in_threadpool(service.register, engine, data.get("board_id"),
                                      data.get("display"))
        return JSONResponse(dict(status="registered", board_id=data["board_id"], key=key),
                            status_code=201)

    async def api_tickets(request):
        data = await _json(request)
        out = await run_in_threadpool(service.issue_tickets, engine, data.get("board_id"),
                                      data.get("key"), data.get("nonce_commits"))
        return JSONResponse(dict(status="issued", tickets=out), status_code=201)

    async def api_games(request):
        body = await _body(request, service.MAX_RECORD_BYTES)
        answer = await run_in_threadpool(service.submit, engine, body)
        return JSONResponse(answer, status_code=201 if answer["status"] == "accepted" else 200)

    async def api_level(request):
        level = _level(request)
        return JSONResponse(dict(level=level, entries=await run_in_threadpool(
            service.board, engine, level)))

    def _level(request):
        level = request.path_params["level"]
        if level not in service.LEVELS:
            raise HTTPException(404, "there is no level %d (levels are 1-6)" % level)
        return level

    async def index(request):
        tops = {lv: await run_in_threadpool(service.board, engine, lv, 10)
                for lv in service.LEVELS}
        return templates.TemplateResponse(request, "index.html", dict(tops=tops))

    async def level_page(request):
        level = _level(request)
        rows = await run_in_threadpool(service.board, engine, level)
        return templates.TemplateResponse(request, "level.html", dict(level=level, rows=rows))

    async def _frames(request):
        from bgboard import render
        g = await run_in_threadpool(service.game, engine, request.path_params["game_id"])
        if g is None:
            raise HTTPException(404, "no such game")
        fr, names = await run_in_threadpool(service.with_bgcore, render.frames, g["record"])
        return g, fr, (g["name"] or names[0], "bot L%d" % g["level"])

    async def game_page(request):
        g, fr, names = await _frames(request)
        shown = request.query_params.get("move", "1")
        shown = number(shown, 9) or 1
        if shown > len(fr):
            shown = 1
        return templates.TemplateResponse(request, "game.html", dict(
            game=g, frames=fr, names=names, shown=shown))

    async def game_svg(request):
        from bgboard import render
        g, fr, names = await _frames(request)
        n = request.path_params["move"]
        if not 1 <= n <= len(fr):
            raise HTTPException(404, "game %d has moves 1-%d" % (g["id"], len(fr)))
        f = fr[n - 1]
        return Response(render.svg(f.pos, f.on_roll, f.dice, f.caption(names)),
                        media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=86400"})

    async def player_page(request):
        slug = request.path_params["slug"]
        name, dash, cc = slug.rpartition("-")
        if not dash or not name or len(cc) != 2:
            raise HTTPException(404, "a player page is /player/NAME-CC")
        rows = await run_in_threadpool(service.player, engine, name, cc.upper())
        return templates.TemplateResponse(request, "player.html", dict(
            name=name, country=cc.upper(), rows=rows))

    async def not_found(request, exc):
        if request.url.path.startswith("/api/"):
            return JSONResponse(dict(status="error", error=exc.detail), exc.status_code)
        return templates.TemplateResponse(request, "error.html", dict(message=exc.detail),
                                          status_code=exc.status_code)

    routes = [
        Route("/", index),
        Route("/level/{level:int}", level_page),
        Route("/game/{game_id:int}", game_page),
        Route("/game/{game_id:int}/move/{move:int}.svg", game_svg),
        Route("/player/{slug:path}", player_page),
        Route("/api/boards", api_register, methods=["POST"]),
        Route("/api/tickets", api_tickets, methods=["POST"]),
        Route("/api/games", api_games, methods=["POST"]),
        Route("/api/level/{level:int}", api_level),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={
        service.Refused: _refused, HTTPException: not_found},
        middleware=[Middleware(_SafetyHeaders)])
    app.state.engine = engine
    return app


def factory():
    """For uvicorn's --factory (each worker builds its own app from BGBOARD_LEADERBOARD_DB)."""
    return build()
