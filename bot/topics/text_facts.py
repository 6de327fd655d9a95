"""What an item's own text says beyond its title, as ``bot.model.ItemFacts`` fields: the error a report quotes,
the accelerators and the vLLM version it runs, the model and the parallelism of its command, the issues a PR
closes, the figure it quotes for its effect, and the body's first sentence that says more than the title.

A pure function of the item's title, body and prose, so the sync works it out once, when it stores the item
(``bot.topics.kinds.with_kinds``, under the same fingerprint as the kinds), and a digest reads it back: worked
out per digest it cost ~25 ms of every build and ~10 ms of compiling these patterns at start-up. A digest
imports this module only for an item stored before these rules changed (``bot.digest.facts``).

Bodies are untrusted and long (GitHub allows 65,536 characters; the sync keeps 20,000). Nothing here runs a
pattern over a whole body: the collect_env dump is left out by ``str.find`` of its markers (its GPU and version
lines are read from short slices at those markers), patterns scan at most ``HEAD`` characters of the rest, and
the error line is found by ``str.find`` of "Error" / "Exception" and read from its own line alone. Every pattern
is precompiled and bounded (no nested unbounded repetition), so a body of 65,536 times one character costs about
what a normal one does.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from bot.model import ItemFacts
from bot.store.records import ItemRecord
from bot.text import strip_controls, truncate

HEAD = 8_000  # characters of a body (after its environment dump) that patterns scan
ERROR_SCAN = 20_000  # characters searched (``str.find`` only) for an error line: tracebacks run long
MAX_ERROR = 160
MAX_SENTENCE = 200
MAX_FIGURE = 60
_MAX_HITS = 40  # occurrences of one marker looked at


def text_facts_of(item: ItemRecord) -> dict[str, object]:
    """What the item's title, body and prose say, as ``ItemFacts`` fields (those not at their default)."""
    body = item.body or ""
    prose = (item.prose or "")[:HEAD]
    found: dict[str, object] = {"sentence": sentence(item.title, prose)}
    if item.is_pr:
        head = body[:HEAD]
        found.update(
            hardware=hardware("", prose),
            fixes=fixed_issues(head, item.repo),
            follow_up=follow_up(head, item.repo),
            figure=figure(prose),
        )
    else:
        rest, env = _without_env(body)
        if not env:
            env = body[:ERROR_SCAN]  # a dump pasted without the template: its markers are found all the same
        head = rest[:HEAD]
        running, since_upgrade, worked_in = version(env, prose)
        found.update(
            hardware=hardware(env, prose),
            error=error_line(rest[:ERROR_SCAN]),
            models=models(head),
            parallel=parallel(head, prose),
            version=running,
            since_upgrade=since_upgrade,
            worked_in=worked_in,
        )
    return {name: value for name, value in found.items() if value != _DEFAULTS[name]}


_DEFAULTS: dict[str, object] = dict(zip(ItemFacts.__struct_fields__, ItemFacts.__struct_defaults__, strict=True))


# --- the environment dump (the issue template's collect_env output) ---

_ENV_STARTS = ("collect_env", "Your current environment")
_ENV_ENDS = ("</details>", "\n### ", "\n## ", "🐛")


def _without_env(body: str) -> tuple[str, str]:
    """(the body without its environment dump, the dump). The dump starts at the template's heading or summary
    (in the body's first 3,000 characters) and ends at its ``</details>`` or the next heading."""
    start = -1
    for marker in _ENV_STARTS:
        found = body.find(marker, 0, 3_000)
        if found >= 0 and (start < 0 or found < start):
            start = found
    if start < 0:
        return body, ""
    end = len(body)
    for marker in _ENV_ENDS:
        found = body.find(marker, start + 30)
        if 0 <= found < end:
            end = found
    return body[:start] + "\n" + body[end:], body[start:end]


def _env_line(env: str, marker: str) -> str:
    """The rest of the dump's line that starts with ``marker``."""
    found = env.find(marker)
    if found < 0:
        return ""
    return env[found + len(marker) : found + len(marker) + 160].split("\n", 1)[0]


def _gpu_lines(env: str) -> str:
    """The dump's "GPU models and configuration" line and the "GPU n: ..." lines under it (16 at most)."""
    marker = "GPU models and configuration"
    found = env.find(marker)
    if found < 0:
        return ""
    lines = env[found + len(marker) : found + len(marker) + 2_400].split("\n")
    kept = [lines[0]]
    for line in lines[1:17]:
        if not line.lstrip().startswith("GPU "):
            break
        kept.append(line)
    return "\n".join(kept)


# --- accelerators ---


def _names(*groups: str) -> dict[str, str]:
    """Lower-case spelling -> canonical name, for each name of ``groups`` (canonical, space separated)."""
    return {name.lower(): name for group in groups for name in group.split()}


# Single words, as a body writes them (looked up after lower-casing and splitting at punctuation): a set lookup
# per word costs a fraction of what one pattern over the prose would, and hundreds of items are read per digest.
_ONE_WORD = _names(
    "H100 H200 H800 H20 B100 B200 B300 GB200 GB300 GB10 GH200 A100 A800 A10 A10G A30 A40 L40 L40S L20 L4 V100 "
    "V100S T4 P100 A4000 A5000 A6000 RTX4090 RTX5090 RTX3090",
    "MI100 MI210 MI250 MI250X MI300 MI300X MI300A MI308X MI325X MI350X MI355X MI400",
    "gfx906 gfx908 gfx90a gfx940 gfx941 gfx942 gfx950 gfx1030 gfx1100 gfx1101 gfx1102 gfx1150 gfx1151 gfx1200 "
    "gfx1201",
    "Gaudi2 Gaudi3 Trillium Trainium Trainium2 Inferentia2 Ascend910B",
)
_ONE_WORD.update({word + "s": name for word, name in list(_ONE_WORD.items()) if word + "s" not in _ONE_WORD})
_ONE_WORD.update({
    "v5e": "TPU v5e", "v5p": "TPU v5p", "v6e": "TPU v6e", "tpuv6e": "TPU v6e", "tpuv5e": "TPU v5e",
    "3090": "RTX 3090", "4090": "RTX 4090", "5090": "RTX 5090", "4090d": "RTX 4090D",  # "4*4090"
    "b580": "Arc B580", "a770": "Arc A770", "910b": "Ascend 910B",
})
# The first word of names of two or three words -> canonical first word
_LEADS = {"rtx": "RTX", "tpu": "TPU", "arc": "Arc", "gaudi": "Gaudi", "jetson": "Jetson", "dgx": "DGX",
          "ascend": "Ascend", "radeon": "Radeon"}
_FOLLOWERS = {
    "rtx": re.compile(r"(?:pro )?a?\d{4}(?: ti| ada| blackwell)?"),
    "tpu": re.compile(r"v\d[a-z]?"),
    "arc": re.compile(r"(?:pro )?[ab]\d{3}"),
    "gaudi": re.compile(r"\d"),
    "jetson": re.compile(r"(?:agx )?(?:orin|thor)"),
    "dgx": re.compile(r"spark"),
    "ascend": re.compile(r"\d{3}[a-z]?\d?"),
    "radeon": re.compile(r"(?:rx |pro |ai pro )?[a-z]?\d{3,4}[a-z]{0,3}(?: xtx| xt| gre)?"),
}
_SPLIT = str.maketrans({c: " " for c in "-/.,;:()[]{}<>|`'\"*!?=+&~^\t\n\r"})
_COUNT_X = re.compile(r"(\d)[x×](?=[a-z])")
_MAX_HARDWARE = 3


def hardware(env: str, prose: str) -> tuple[str, ...]:
    """The accelerators the collect_env dump's GPU lines and the prose name, first named first, canonical
    ("H100", "MI300X", "gfx942", "TPU v6e", "RTX 4090"); a gfx target only without the Instinct part it is."""
    found: list[tuple[int, int, str]] = []
    for rank, text in enumerate((_gpu_lines(env), prose[:HEAD])):
        if not text:
            continue
        lowered = text.lower()
        if "x" in lowered or "×" in lowered:  # "8xH100" ("4*A100" splits at "*")
            lowered = _COUNT_X.sub(r"\1 ", lowered)
        words = set(lowered.translate(_SPLIT).split())
        for word in _ONE_WORD.keys() & words:
            found.append((rank, _position(lowered, word), _ONE_WORD[word]))
        for lead in _LEADS.keys() & words:
            start = 0
            for _ in range(3):
                at = lowered.find(lead, start)
                if at < 0:
                    break
                start = at + len(lead)
                rest = lowered[start : start + 24].translate(_SPLIT).lstrip()
                follower = _FOLLOWERS[lead].match(" ".join(rest.split()))
                if follower is not None and (at == 0 or not lowered[at - 1].isalnum()):
                    found.append((rank, at, _lead_name(lead, follower.group(0))))
    found.sort()
    names: list[str] = []
    for _, _, name in found:
        if name not in names:
            names.append(name)
    if any(name.startswith("MI") for name in names):
        names = [name for name in names if not name.startswith("gfx")]
    return tuple(names[:_MAX_HARDWARE])


def _position(text: str, word: str) -> int:
    """Where ``word`` first stands as a word of ``text`` (for the order names are given in)."""
    start = 0
    while True:
        at = text.find(word, start)
        if at < 0:
            return len(text)
        end = at + len(word)
        if (at == 0 or not text[at - 1].isalnum()) and (end == len(text) or not text[end].isalnum()):
            return at
        start = end


def _lead_name(lead: str, follower: str) -> str:
    if lead == "tpu":
        return f"TPU {follower}"
    if lead in ("jetson", "dgx"):
        return f"{_LEADS[lead]} " + " ".join(w.upper() if w == "agx" else w.capitalize() for w in follower.split())
    if lead == "gaudi":
        return f"Gaudi{follower}"
    words = [w.upper() if w not in ("ti", "ada", "blackwell", "pro") or lead == "radeon" else w.capitalize()
             for w in follower.split()]
    words = ["PRO" if w in ("Pro", "PRO") and lead == "rtx" else w for w in words]
    return " ".join([_LEADS[lead], *words])


# --- the vLLM version ---

_VERSION_VALUE = re.compile(r"[ \t]*:?[ \t]*v?(\d{1,2}\.\d{1,3}(?:\.\d{1,3})?(?:(?:rc|a|b|\.post|\.dev)\d{1,6}){0,2})")
_V = r"v?(\d{1,2}\.\d{1,3}(?:\.\d{1,3})?(?:rc\d{1,3}|\.post\d{1,3})?)(?![\d.]*\d)"
_PROSE_VERSION = re.compile(
    rf"\bvllm[ \t]*(?:==|>=|version[ \t]*:?|v)?[ \t]*{_V}|\bv(\d\.\d{{1,3}}\.\d{{1,3}}(?:rc\d{{1,3}})?)\b"
)
_OTHER_PACKAGE = re.compile(
    r"(?:transformers|torch|pytorch|triton|flashinfer|xgrammar|cuda|rocm|nccl|python|driver|aiter|deepgemm|cutlass|"
    r"lmcache|ray|numpy|tokenizers|outlines|docker|ubuntu|image)[ \t:=]*$"
)
_UPGRADE_TO = re.compile(rf"(?:upgrad\w{{0,4}}|updat\w{{0,4}}|bump\w{{0,4}}|升级)[ \t]*(?:vllm[ \t]*)?"
                         rf"(?:from[ \t]*v?[\d.]{{1,12}}[ \t]*)?(?:to|到|至)[ \t]*(?:vllm[ \t]*)?{_V}")
_WORKED_IN = re.compile(
    rf"(?:work(?:s|ed|ing)?|was fine|is fine|no (?:such )?(?:issue|problem)|fine)[ \t]*(?:fine[ \t]*|well[ \t]*)?"
    rf"(?:in|on|with|using|under)[ \t]*(?:vllm[ \t]*)?{_V}"
    rf"|(?:downgrad\w{{0,4}}|roll\w{{0,3}} back|revert\w{{0,4}}|回退|降级)[ \t]*(?:vllm[ \t]*)?(?:to|到|至)?[ \t]*"
    rf"(?:vllm[ \t]*)?{_V}"
    rf"|{_V}[ \t]*[,，]?[ \t]*(?:it[ \t]*)?(?:works|worked|is fine|was fine|can run|could run|ran fine|runs fine|"
    rf"没问题|正常|可以)"
)
_REGRESSION = re.compile(
    r"\b(?:used to work|no longer work\w{0,2}|stopped working|worked (?:fine |well )?before|was working before|"
    r"(?:after|since) (?:upgrad\w{0,4}|updat\w{0,4}|bump\w{0,4})|broke (?:after|since|in)|regression|regressed)\b"
    r"|升级后|升级之后|之前(?:的版本)?(?:是)?(?:正常|没问题|可以)|降级.{0,12}(?:没问题|正常|可以)"
)


_DOTTED = re.compile(r"\d\.\d")
_UPGRADE_WORDS = ("upgrad", "updat", "bump", "升级")
_REGRESSION_WORDS = ("work", "regress", "upgrad", "updat", "bump", "broke", "升级", "之前", "降级")


def version(env: str, prose: str) -> tuple[str, bool, str]:
    """(the vLLM version the reporter runs, whether the body says it worked before, the version it says worked).
    The collect_env dump's "vLLM Version" first, else the version the prose names ("after upgrading to 0.11.1",
    "vllm==0.11.0", "on v0.11.0")."""
    text = prose[:HEAD].lower()
    running = ""
    found = _VERSION_VALUE.match(_env_line(env, "vLLM Version"))
    if found and not found.group(1).startswith("0.1.dev"):
        running = found.group(1)
    dotted = _DOTTED.search(text) is not None
    worked = _WORKED_IN.search(text) if dotted else None
    worked_in = next((g for g in worked.groups() if g), "") if worked else ""
    upgraded = _UPGRADE_TO.search(text) if dotted and any(word in text for word in _UPGRADE_WORDS) else None
    if not running and upgraded:
        running = upgraded.group(1)
    if not running and dotted:
        for match in _PROSE_VERSION.finditer(text):
            named = match.group(1) or match.group(2)
            if match.group(2) and _OTHER_PACKAGE.search(text, max(0, match.start() - 24), match.start()):
                continue  # "transformers v4.57.1", "flashinfer v0.4.1"
            if named and named != worked_in:
                running = named
                break
    if worked_in == running:
        worked_in = ""
    since_upgrade = bool(worked_in) or upgraded is not None or (
        any(word in text for word in _REGRESSION_WORDS) and _REGRESSION.search(text) is not None
    )
    return running, since_upgrade, worked_in


# --- the error a report quotes ---

_EXCEPTION_NAME = re.compile(r"(?:[A-Za-z_][A-Za-z0-9_]*\.){0,8}[A-Z][A-Za-z0-9_]*")
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.")
_ERROR_ENDINGS = ("Error", "Exception")
# What vLLM raises after the real failure ("see root cause above"): a report's error is the root cause.
_GENERIC = (
    "engine core initialization failed", "see root cause above", "see stack trace above", "enginecore encountered",
    "engine core proc", "worker failed", "background loop has errored", "failed core proc",
)
_GENERIC_NAMES = ("EngineDeadError", "EngineGenerateError")


def error_line(text: str) -> str:
    """The error a report quotes: the first exception line of its (first) traceback that is not vLLM's generic
    wrapper ("Engine core initialization failed. See root cause above", ``EngineDeadError``); cleaned to
    "Name: the message's first sentence", at most ``MAX_ERROR`` characters. "" when it quotes none."""
    found: list[tuple[int, str, bool]] = []
    for ending in _ERROR_ENDINGS:
        for at in _occurrences(text, ending):
            error = _error_at(text, at, ending)
            if error:
                lowered = error.lower()
                generic = any(g in lowered for g in _GENERIC) or error.split(":", 1)[0].endswith(_GENERIC_NAMES)
                found.append((at, error, generic))
    if not found:
        return ""
    found.sort()
    # vLLM's wrappers alone ("EngineDeadError: EngineCore encountered an issue") name no failure
    return next((error for _, error, generic in found if not generic), "")


def _occurrences(text: str, needle: str) -> Iterator[int]:
    start = 0
    for _ in range(_MAX_HITS):
        at = text.find(needle, start)
        if at < 0:
            return
        yield at
        start = at + len(needle)


def _error_at(text: str, at: int, ending: str) -> str:
    """The exception named by the word ending at ``text[at:at + len(ending)]``, when it is one: a dotted Python
    name followed by ": message" or by the end of its line ("raise ValueError(" and prose "a KeyError" are not)."""
    end = at + len(ending)
    if end < len(text) and (text[end].isalnum() or text[end] == "_"):
        return ""  # "ErrorCode", "Errors"
    start = at
    while start > 0 and text[start - 1] in _NAME_CHARS and at - start < 120:
        start -= 1
    name = text[start:end].lstrip(".")
    if name == "Error" or not _EXCEPTION_NAME.fullmatch(name):
        return ""
    line_end = text.find("\n", end, end + 2_000)
    if line_end < 0:
        line_end = min(len(text), end + 2_000)
    after = text[end:line_end]
    if after.startswith(":"):
        message = _first_sentence(after[1:])
    elif after.strip() == "":
        message = ""
    else:
        return ""
    error = f"{name}: {message}" if message else name
    return truncate(" ".join(strip_controls(error).replace("`", "'").split()), MAX_ERROR)


def _first_sentence(message: str) -> str:
    message = message.strip()
    for stop in (". ", ".\t"):
        cut = message.find(stop)
        if cut > 0:
            message = message[:cut]
    return message.rstrip(".").strip()


# --- the command it runs ---

_MODEL_AFTER = {
    "--model": re.compile(r"--model(?:[ \t]*=[ \t]*|[ \t]+(?:\\[ \t]*\n[ \t]*)?)[\"']?(?P<m>[~./\w][\w./~-]{0,160})"),
    "vllm serve": re.compile(r"vllm serve[ \t]+[\"']?(?P<m>[~./\w][\w./~-]{0,160})"),
    "model=": re.compile(r"model[ \t]*=[ \t]*[\"'](?P<m>[~./\w][\w./~-]{0,160})[\"']"),
    "LLM(": re.compile(r"LLM\([ \t\n]*(?:model[ \t]*=[ \t]*)?[\"'](?P<m>[~./\w][\w./~-]{0,160})[\"']"),
}
_NOT_MODELS = frozenset({
    "model", "models", "auto", "path", "model_path", "model_name", "model_id", "none", "your-model", "your_model",
    "mymodel", "my-model", "local", "dummy", "test", "foo", "bar",
})
_MAX_MODELS = 2


def models(text: str) -> tuple[str, ...]:
    """The models a body's command runs (``--model X``, ``vllm serve X``, ``LLM(model="X")``), as Hugging Face
    ids, a local path's last folder for a path; first named first."""
    found: list[str] = []
    for marker, pattern in _MODEL_AFTER.items():
        for at in _occurrences(text, marker):
            if marker == "model=" and at > 0 and (text[at - 1].isalnum() or text[at - 1] == "_"):
                continue  # served_model=, tokenizer_model=
            match = pattern.match(text, at, at + 200)
            if match is None:
                continue
            name = _model_name(match.group("m"))
            if name and name not in found:
                found.append(name)
            if len(found) >= _MAX_MODELS:
                return tuple(found)
    return tuple(found)


def _model_name(raw: str) -> str:
    raw = raw.rstrip("./-")
    if raw.startswith(("/", "./", "~", "../")):
        raw = raw.rstrip("/").rsplit("/", 1)[-1]
    if raw.count("/") > 1 or len(raw) < 3 or raw.lower() in _NOT_MODELS or not any(c.isalpha() for c in raw):
        return ""
    return raw


# --- parallelism ---

_PARALLEL_FLAG = re.compile(
    r"(?<![\w-])--?(?:(?P<long>tensor|pipeline|data|expert)[-_]parallel[-_]size|(?P<short>tp|pp|dp)(?:[-_]size)?)"
    r"(?:[ \t]*=[ \t]*|[ \t]+)(?P<n>\d{1,4})(?!\d)"
    r"|(?P<kw>tensor|pipeline|data)_parallel_size[ \t]*=[ \t]*(?P<kwn>\d{1,4})(?!\d)"
    r"|(?<![\w-])(?P<ep>--enable[-_]expert[-_]parallel|-ep)(?![\w-])"
)
_PARALLEL_PROSE = re.compile(r"(?<![A-Za-z])(?P<p>TP|PP|DP|EP)(?:[ \t]?[=:][ \t]?|[ \t]?)(?P<n>\d{1,4})?(?![\w])")
# (marker, how far before it the flag starts): "--tensor-parallel-size", "tensor_parallel_size=", "-tp 8"
_PARALLEL_MARKERS = (("parallel", 20), ("-tp", 1), ("-pp", 1), ("-dp", 1), ("-ep", 1))
_PARALLEL_ORDER = ("TP", "PP", "DP", "EP")
_LONG = {"tensor": "TP", "pipeline": "PP", "data": "DP", "expert": "EP"}


def parallel(text: str, prose: str) -> tuple[str, ...]:
    """The parallelism a body's command or prose names: "TP=8", "PP=2", "DP=4", "EP" (sizes of 1 add nothing)."""
    sizes: dict[str, str] = {}
    for marker, back in _PARALLEL_MARKERS:
        for at in _occurrences(text, marker):
            match = _PARALLEL_FLAG.search(text, max(0, at - back), at + 40)
            if match is None:
                continue
            if match.group("ep"):
                sizes.setdefault("EP", "")
                continue
            if match.group("kw"):
                kind, n = _LONG[match.group("kw")], match.group("kwn")
            else:
                kind = _LONG[match.group("long")] if match.group("long") else match.group("short").upper()
                n = match.group("n")
            if kind == "EP" or int(n) > 1:
                sizes.setdefault(kind, "" if kind == "EP" else n)
    if any(marker in prose for marker in _PARALLEL_ORDER):
        for match in _PARALLEL_PROSE.finditer(prose[:HEAD]):
            kind, n = match.group("p"), match.group("n") or ""
            if kind == "EP":
                sizes.setdefault("EP", "")
            elif n and int(n) > 1:
                sizes.setdefault(kind, n)
    return tuple(kind if kind == "EP" else f"{kind}={sizes[kind]}" for kind in _PARALLEL_ORDER if kind in sizes)


# --- what a PR closes or follows ---

_REF = (r"(?:#(?P<{g}>\d{{1,7}})|(?P<{g}r>[\w.-]{{1,100}}/[\w.-]{{1,100}})#(?P<{g}n>\d{{1,7}})"
        r"|https?://[\w.-]{{1,100}}/(?P<{g}u>[\w.-]{{1,100}}/[\w.-]{{1,100}})/(?:issues|pull)/(?P<{g}un>\d{{1,7}}))")
_CLOSING = re.compile(
    r"(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)[ \t]*:?[ \t]*" + _REF.format(g="a")
    + r"(?:[ \t]*(?:,|and|&)[ \t]*(?:(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)[ \t]*:?[ \t]*)?"
    + _REF.format(g="b") + r")?"
    + r"(?:[ \t]*(?:,|and|&)[ \t]*(?:(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)[ \t]*:?[ \t]*)?"
    + _REF.format(g="c") + r")?"
)
_CLOSING_WORDS = ("fix", "close", "resolve")
_FOLLOW_UP = re.compile(
    r"follow[- ]?(?:up|on)(?:[ \t]+(?:pr|change))?[ \t]*(?:to|of|for|on)?[ \t]*(?:pr[ \t]*)?:?[ \t]*"
    + _REF.format(g="a")
)
_MAX_FIXES = 5


def fixed_issues(text: str, repo: str) -> tuple[int, ...]:
    """The issues a PR body says it closes with GitHub's closing keywords (fix, fixes, fixed, close, closes,
    closed, resolve, resolves, resolved) and a reference to this repository ("#123", "owner/repo#123", an issue
    URL), in order; a list after one keyword ("Fixes #1, #2") counts too."""
    lowered = text.lower()
    found: list[int] = []
    for word in _CLOSING_WORDS:
        for at in _occurrences(lowered, word):
            if at > 0 and (lowered[at - 1].isalnum() or lowered[at - 1] == "_"):
                continue  # "prefix", "hotfix #1" is no closing keyword
            match = _CLOSING.match(lowered, at, at + 400)
            if match is None:
                continue
            for group in "abc":
                number = _ref_number(match, group, repo)
                if number is not None and number not in found:
                    found.append(number)
    return tuple(found[:_MAX_FIXES])


def follow_up(text: str, repo: str) -> int | None:
    """The PR or issue a body says it follows up ("Follow-up to #123", "follow up of <URL>")."""
    lowered = text.lower()
    for at in _occurrences(lowered, "follow"):
        match = _FOLLOW_UP.match(lowered, at, at + 300)
        if match is not None:
            number = _ref_number(match, "a", repo)
            if number is not None:
                return number
    return None


def _ref_number(match: re.Match[str], group: str, repo: str) -> int | None:
    """The number a reference names when it is this repository's (a bare "#N" always is)."""
    if match.group(group):
        return int(match.group(group))
    other = match.group(group + "r") or match.group(group + "u")
    if other and other.lower() == repo.lower():
        return int(match.group(group + "n") or match.group(group + "un"))
    return None


# --- the figure a PR quotes ---

_NUM = r"(?<![\w.])\d{1,6}(?:\.\d{1,4})?(?!\.?\d)"
_UNITS = r"[ \t]?(?:ms|us|µs|s|tok/s|tokens/s|req/s|it/s|GB|GiB|MB|%|x)(?![A-Za-z])"
_UNIT = rf"(?:{_UNITS})?"
_BETTER = r"(?:higher|better|faster|lower|less|more|reduction|improvement|increase|decrease|drop|gain|speed-?up)"
_METRIC = (r"(?:TPOT|TTFT|ITL|E2EL|E2E latency|latency|throughput|tok/s|tokens/s|req/s|QPS|memory|accuracy|"
           r"GSM8K|speed|decode|prefill)")
_CHANGE = re.compile(  # "TPOT 12.1 ms → 9.8 ms", "throughput: 1450 -> 1730 tok/s", "TTFT from 80 ms to 61 ms"
    rf"(?:\b(?P<metric>{_METRIC})\b[^\d\n.;]{{0,24}})?"
    rf"(?:(?P<a>{_NUM}{_UNIT})[ \t]?(?:->|→|=>|⟶)[ \t]?(?P<b>{_NUM}{_UNIT})"
    rf"|from[ \t](?P<c>{_NUM}{_UNITS})[ \t]to[ \t](?P<d>{_NUM}{_UNITS}))",
    re.IGNORECASE,
)
_FIGURES = (
    # "1.8x throughput", "2x faster", "-30% TTFT", "12% lower TPOT"
    re.compile(rf"[-+−~]?{_NUM}(?:[x×]|[ \t]?%)[ \t]?(?:{_BETTER}\b(?:[ \t](?:in|on|of))?(?:[ \t]{_METRIC}\b)?"
               rf"|{_METRIC}\b)", re.IGNORECASE),
)
_VERBS = r"(?:reduc|cut|lower|decreas|drop|shrink|improv|increas|boost|rais|speed)\w{0,4}(?:[ \t]up)?"
_BY = re.compile(  # "reduces TTFT by 30%", "TTFT drops by 12%", "a speedup of 1.8x"
    rf"\b(?:(?P<verb>{_VERBS})[ \t](?:the[ \t])?(?P<metric>{_METRIC})[ \t]|(?P<metric2>{_METRIC}|speed-?up)[ \t]"
    rf"(?:(?P<verb2>{_VERBS})[ \t])?)(?:by|of)[ \t](?:~|about[ \t]|up[ \t]to[ \t])?(?P<n>{_NUM}(?:[ \t]?%|[x×]))",
    re.IGNORECASE,
)
_LOWER_IS_BETTER = frozenset({"tpot", "ttft", "itl", "e2el", "e2e latency", "latency", "memory"})
_FIGURE_MARKS = ("%", "→", "->", "=>", "⟶", "×", "from")
_TIMES = re.compile(r"\d[xX]")  # "1.8x"


def figure(prose: str) -> str:
    """The figure a PR's own prose quotes for its effect ("TPOT 12.1 ms → 9.8 ms", "1.8x throughput", "-30%
    TTFT"): a change with the metric it names first, else a ratio or a percentage with one; "" when none."""
    text = prose[:HEAD]
    if not any(mark in text for mark in _FIGURE_MARKS) and _TIMES.search(text) is None:
        return ""
    change = _CHANGE.search(text)
    if change is not None:
        before, after = change.group("a") or change.group("c"), change.group("b") or change.group("d")
        found = f"{before} → {after}"
        if change.group("metric"):
            found = f"{change.group('metric')} {found}"
        return _tidy_figure(found)
    for pattern in _FIGURES:
        match = pattern.search(text)
        if match is not None:
            return _tidy_figure(match.group(0))
    by = _BY.search(text)
    if by is not None:
        metric, verb, n = by.group("metric") or by.group("metric2"), by.group("verb") or by.group("verb2") or "", \
            by.group("n").replace(" ", "")
        if n.endswith(("x", "×")):
            return _tidy_figure(f"{n} {metric}")  # "1.8x speedup"
        return _tidy_figure(f"{_sign(metric, verb)}{n} {metric}")  # "-30% TTFT"
    return ""


def _sign(metric: str, verb: str) -> str:
    """How a percentage a verb gives changes the metric: "reduces" -, "increases" +, "improves" whichever way
    is better for it."""
    verb = verb.lower()
    if verb.startswith(("reduc", "cut", "lower", "decreas", "drop", "shrink")):
        return "-"
    if verb.startswith(("increas", "boost", "rais")):
        return "+"
    if verb.startswith(("improv", "speed")):
        return "-" if metric.lower() in _LOWER_IS_BETTER else "+"
    return ""


def _tidy_figure(found: str) -> str:
    found = " ".join(found.replace("×", "x").replace("−", "-").split())
    return truncate(found.strip(" ,;:"), MAX_FIGURE)


# --- the sentence that says more than the title ---

_SENTENCE_END = re.compile(r"[.!?]\s+(?=[A-Z0-9\"'(\[])|[。！？；]")  # what ends a sentence, its punctuation first
_TITLE_TAG = re.compile(r"^\s*(?:\[[^\]\n]{0,40}\]\s*:?\s*){1,4}")
_WORD = re.compile(r"[a-z0-9]+|[\u3400-\u9fff]+")
_STOP_WORDS = (
    "a an the this that these those it its is are was were be been being to of in on for with and or by from at as "
    "into onto we i our my you your pr prs change changes commit patch when which also will would can could should "
    "not no so but if then than there here via use uses using used add adds added adding make makes made support "
    "supports now new some more all any http https www github com"
)
_STOP = frozenset(_STOP_WORDS.split())
_BOILERPLATE = re.compile(
    r"^(?:as (?:the )?titled?\b|as (?:the )?title (?:says|said|suggests)|same as (?:the )?title|title says it all|"
    r"see (?:the )?title|self[- ]explanatory|tl;?dr\b|n/?a\b|wip\b|draft\b|todo\b|"
    r"(?:please )?(?:see|refer to|check)\b|(?:this (?:pr|change|commit) (?:is )?(?:a )?)?follow[- ]?(?:up|on)\b|"
    r"(?:fix(?:e[sd])?|close[sd]?|resolve[sd]?|related(?: to)?|part of|refs?)[ \t]*:?[ \t]*(?:#|https?://|[\w.-]+/[\w.-]+#)|"
    r"(?:cc|thanks|thank you|signed-off-by|co-authored-by)\b|"
    r"(?:more )?(?:details|logs|details and logs|logs and details|steps|repro\w*|traceback|output)"
    r"(?: (?:are|is))? (?:below|attached|as follows)|(?:see|find) (?:the )?\w+ below|as follows\b|"
    r"reported (?:in #|by (?:several|many|some|a few|multiple) (?:users|people))|"
    r"a clear and concise description|describe the bug|to reproduce|steps to reproduce|expected behaviou?r|"
    r"the feature, motivation|additional context|alternatives\b|your current environment|"
    r"如题|同标题|见标题|标题即|详见|参见)"  # matched against the lower-cased sentence
)
_MAX_SENTENCES = 24


def sentence(title: str, prose: str) -> str:
    """The first sentence of the body's own prose that says more than the title: it does not contain the title,
    fewer than 40% of its words are the title's, it has words of its own, and it is no template line or
    boilerplate ("As titled", "See #123", "FIX #123", "This PR adds <the title>"). "" when none does."""
    if not prose:
        return ""
    tokens = _WORD.findall(_TITLE_TAG.sub("", title).lower())
    words_of_title, bare_title = _words(tokens), " ".join(tokens)
    for text in itertools.islice(_sentences(prose[:HEAD]), _MAX_SENTENCES):
        if says_more(text, words_of_title, bare_title):
            return truncate(text, MAX_SENTENCE)
    return ""


def _sentences(prose: str) -> Iterator[str]:
    """The prose's sentences, each with its end punctuation, one paragraph (line) after another."""
    for paragraph in prose.split("\n"):
        start = 0
        for end in _SENTENCE_END.finditer(paragraph):
            yield paragraph[start : end.start() + 1].strip()
            start = end.end()
        yield paragraph[start:].strip()


def says_more(text: str, title_words: frozenset[str], bare_title: str) -> bool:
    """Whether ``text`` tells a reader something its title (``title_words``; ``bare_title``, its words joined by
    single spaces) does not."""
    if not text:
        return False
    lowered = text.lower()
    if _BOILERPLATE.match(lowered, 0, 60):
        return False
    tokens = _WORD.findall(lowered)  # "#123" reads as a number, a link as words that never count
    if bare_title and bare_title in " ".join(tokens):
        return False
    words = _words(tokens)
    if not words:
        return False
    shared = len(words & title_words)
    own = len(words) - shared
    if own >= 3:
        return shared < 0.4 * len(words)
    return own >= 2 and shared < 0.4 * len(words) and not lowered.isascii()


def _words(tokens: list[str]) -> frozenset[str]:
    """The words that carry meaning: stop words out, cut to 5 letters (update/updates/updated are one word);
    Chinese as pairs of characters."""
    words = {token[:5] for token in tokens if len(token) > 1 and token not in _STOP and not token.isdigit()}
    if not all(map(str.isascii, tokens)):
        for token in tokens:
            if not token.isascii():
                words.discard(token[:5])
                words.update(token[k : k + 2] for k in range(max(1, len(token) - 1)))
    return frozenset(words)


def title_words(title: str) -> frozenset[str]:
    """The title's meaningful words, as ``says_more`` compares them."""
    return _words(_WORD.findall(_TITLE_TAG.sub("", title).lower()))
