"""How big one daily chat post is: messages, blocks or embeds, and characters, for the demo day (en, zh-CN).

    python -m bench.bench_post_size            # this checkout: a few seconds
    python bench/bench_post_size.py            # the same, as a plain script

The demo day is ``digest-bot demo``'s (a generated vLLM-like repository, 2025-12-02 11:05 Asia/Shanghai, the
configuration of the checkout it runs in). A post is what ``--format slack`` / ``--format discord`` print: the
channel message, then the thread. Per post it prints

- messages: Slack, the channel message + its replies; Discord, the first message + the thread's;
- blocks (Slack) or embeds (Discord), over all messages;
- characters a reader is shown: Slack, the fallback is not shown, so every header, mrkdwn and plain text and
  every rich text element's text; Discord, the content and every embed's text as ``len(discord.Embed)`` counts
  it (title, description, fields, footer), which includes the Markdown of its links;
- the channel message's (first message's) share of those characters, and the JSON size of the whole post.

It uses only ``bot.demo.run.run_demo``, so the same file runs in an older checkout too: copy it there and run
it from that checkout's root to measure "before" (``git worktree add /tmp/base <rev>``, then
``cd /tmp/base && python /path/to/bench_post_size.py``). It prints which checkout's code it ran.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # also runs as a plain script
    sys.path.insert(0, str(ROOT))
if str(Path.cwd()) not in sys.path[:1]:  # the checkout it is run from comes first (a copy measuring another)
    sys.path.insert(0, str(Path.cwd()))

import bot  # noqa: E402
from bot.demo.run import run_demo  # noqa: E402
from bot.settings import load_settings  # noqa: E402


def slack_text(payload: dict[str, Any]) -> list[str]:
    """Every text Slack shows of one message (not the notification fallback)."""
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") in ("mrkdwn", "plain_text", "text", "link") and isinstance(node.get("text"), str):
                found.append(node["text"])
                return
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(payload["blocks"])
    return found


def discord_text(message: dict[str, Any]) -> list[str]:
    found = [message.get("content", "")]
    for embed in message["embeds"]:
        found += [embed.get("title", ""), embed.get("description", ""), embed.get("footer", {}).get("text", "")]
        for field in embed.get("fields", ()):
            found += [field["name"], field["value"]]
    return found


def measure(fmt: str, locale: str) -> dict[str, Any]:
    settings = load_settings(None)
    output = run_demo(fmt=fmt, locale=locale, settings=settings, info=lambda _line: None)
    messages = json.loads(output)
    texts = slack_text if fmt == "slack" else discord_text
    parts = "blocks" if fmt == "slack" else "embeds"
    chars = [sum(len(text) for text in texts(message)) for message in messages]
    return {
        "platform": fmt,
        "locale": locale,
        "messages": len(messages),
        "replies": len(messages) - 1,
        parts: sum(len(message[parts]) for message in messages),
        "chars": sum(chars),
        "channel_chars": chars[0],
        "json_bytes": len(json.dumps(messages, ensure_ascii=False).encode()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per line instead of a table")
    args = parser.parse_args(argv)
    print(f"code: {Path(bot.__file__).resolve().parents[1]}", file=sys.stderr)
    rows = [measure(fmt, locale) for fmt in ("slack", "discord") for locale in ("en", "zh-CN")]
    if args.json:
        for row in rows:
            print(json.dumps(row, ensure_ascii=False))
        return 0
    print(f"{'post':<16}{'messages':>9}{'replies':>8}{'blocks/embeds':>14}{'chars':>8}{'channel chars':>14}"
          f"{'JSON bytes':>11}")
    for row in rows:
        parts = row.get("blocks", row.get("embeds"))
        print(f"{row['platform'] + ' ' + row['locale']:<16}{row['messages']:>9}{row['replies']:>8}{parts:>14}"
              f"{row['chars']:>8}{row['channel_chars']:>14}{row['json_bytes']:>11}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
