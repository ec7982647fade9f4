"""The command line explains itself: `bgboard --version`; every sub-command's help starts with a
line saying what it does; every argument has a help text; every value placeholder is written
the same way (upper case: `--out DIR`, `--games N`)."""

import argparse
import re
import subprocess
import sys

from bgboard.cli import build_parser


def _parsers(parser, path=("bgboard",)):
    """(command path, parser) for the parser and every sub-command under it."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, path + (name,))


def test_version():
    from bgcore import __version__
    r = subprocess.run([sys.executable, "-m", "bgboard.cli", "--version"], capture_output=True,
                       text=True)
    assert r.returncode == 0 and r.stdout.strip() == "bgboard %s" % __version__, r.stdout


def test_every_command_and_argument_is_described():
    missing, placeholders, undescribed = [], [], []
    for path, parser in _parsers(build_parser()):
        if len(path) > 1 and not (parser.description or "").strip():
            undescribed.append(" ".join(path))
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._VersionAction,
                                   argparse._SubParsersAction)):
                continue
            name = "/".join(action.option_strings) or action.dest
            if action.help is None or (action.help != argparse.SUPPRESS
                                       and not action.help.strip()):
                missing.append("%s %s" % (" ".join(path), name))
            if action.nargs == 0 or action.help == argparse.SUPPRESS:
                continue
            if action.choices is not None and action.metavar is None:
                continue                                  # shown as {a,b,c}
            if not (action.metavar and re.fullmatch(r"[A-Z][A-Z0-9_|]*", action.metavar)):
                placeholders.append("%s %s (%r)" % (" ".join(path), name, action.metavar))
    assert not undescribed, "sub-commands without a description: %s" % ", ".join(undescribed)
    assert not missing, "arguments without help: %s" % ", ".join(missing)
    assert not placeholders, "placeholders not in the one style: %s" % ", ".join(placeholders)


def test_a_sub_commands_help_starts_with_what_it_does():
    r = subprocess.run([sys.executable, "-m", "bgboard.cli", "export", "--help"],
                       capture_output=True, text=True)
    assert r.returncode == 0
    paragraphs = r.stdout.split("\n\n")
    assert paragraphs[0].startswith("usage: bgboard export")
    assert "GNU Backgammon" in paragraphs[1] or ".sgf" in paragraphs[1], r.stdout
    assert "archive" in r.stdout            # FILE may be an archived record's name
