"""The deterministic narrative: trends against each topic's own baseline, activity figures, hot streaks and the
status summary, on SQLite and PostgreSQL, through the real builder and the JSON contract."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from msgspec import structs

from bot.digest.build import BuildOptions, DigestBuilder
from bot.digest.narrative import mood, render_summary, topic_baselines
from bot.model import Activity, Digest, DigestItem, NewBug, Section, Stats
from bot.store.history import History
from bot.store.store import Store
from formatters.json_format import digest_to_dict, render_json
from formatters.markdown import render_markdown
from tests.factories import comment_payload, issue_payload
from tests.test_build import INSIDE, START, TAXONOMY, WINDOW, is_bot, save

DAY = timedelta(days=1)


def build(store: Store, taxonomy=TAXONOMY, **options: object) -> Digest:  # type: ignore[no-untyped-def]
    builder = DigestBuilder(store, taxonomy, BuildOptions(**options), is_bot=is_bot)  # type: ignore[arg-type]
    return builder.build("o/r", WINDOW)


def rocm(number: int, created, **kw: object) -> dict:  # type: ignore[no-untyped-def]
    return issue_payload(number, created, title=f"[ROCm] MI300X issue {number}", **kw)  # type: ignore[arg-type]


def qwen(number: int, created, **kw: object) -> dict:  # type: ignore[no-untyped-def]
    return issue_payload(number, created, title=f"Qwen3 model output {number}", **kw)  # type: ignore[arg-type]


def comments(first_id: int, number: int, at, n: int, *, user: str = "bob", bot: bool = False,  # type: ignore[no-untyped-def]
             same_person: bool = False) -> list[dict]:
    """``n`` comments a minute apart, each by another person (``user0``, ``user1``, ...) unless ``same_person``."""
    return [comment_payload(first_id + k, number, at + timedelta(minutes=k),
                            user=user if same_person else f"{user}{k}", bot=bot)
            for k in range(n)]


def test_a_trend_is_its_section_against_the_topics_own_trailing_mean(store: Store) -> None:
    history = []
    for day in range(1, 8):  # one ROCm item and three Qwen items on each of the 7 days before
        at = START - day * DAY + timedelta(hours=3)
        history += [rocm(100 + day, at), *(qwen(200 + 10 * day + k, at) for k in range(3))]
    history.append(rocm(300, START - 6 * DAY, user="dependabot[bot]"))  # bots are not a topic's items
    today = [rocm(1, INSIDE), rocm(2, INSIDE), rocm(3, INSIDE), qwen(4, INSIDE), qwen(5, INSIDE)]
    save(store, history + today)

    digest = build(store)
    trends = {trend.topic: trend for trend in digest.narrative.trends}
    section = digest.section("topic:rocm")
    assert trends["rocm"].count == len(section.items) == 3
    assert trends["rocm"].baseline == 1.0 and trends["rocm"].ratio == 3.0
    assert trends["rocm"].items == tuple(item.number for item in section.items[:3])
    assert "qwen" not in trends  # 2 items against a usual 3 a day: quieter than usual, not a trend
    assert len(digest.section("topic:qwen").items) == 2


def test_an_item_touched_on_several_days_counts_on_each(store: Store) -> None:
    touched = START - 3 * DAY + timedelta(hours=1)
    save(
        store,
        [rocm(1, touched), rocm(2, INSIDE), rocm(3, INSIDE)],
        comments(10, 1, touched + DAY, 1) + comments(20, 1, touched + 2 * DAY, 1),  # and on the next two days
    )
    digest = build(store)
    baselines = topic_baselines(History(store), digest, TAXONOMY, is_bot, synced_from=None)
    assert baselines["rocm"] == 3 / 7


def test_days_the_store_never_synced_are_left_out_of_the_mean(store: Store) -> None:
    save(store, [rocm(1, START - DAY + timedelta(hours=1)), rocm(2, INSIDE), rocm(3, INSIDE)])
    digest = build(store)
    history = History(store)
    assert topic_baselines(history, digest, TAXONOMY, is_bot, synced_from=START - 2 * DAY)["rocm"] == 1 / 2
    assert topic_baselines(history, digest, TAXONOMY, is_bot, synced_from=START - DAY / 2) == {}
    assert topic_baselines(history, digest, TAXONOMY, is_bot, synced_from=None)["rocm"] == 1 / 7


def test_a_topic_new_since_the_baseline_days_needs_three_items_too(store: Store) -> None:
    # Policy (docs/editorial.md, "Trends"): two items were a trend before; now a trend needs 3 items today.
    save(store, [rocm(1, INSIDE), rocm(2, INSIDE), rocm(3, INSIDE), qwen(4, INSIDE), qwen(5, INSIDE)])
    digest = DigestBuilder(store, TAXONOMY, BuildOptions(), is_bot=is_bot).build("o/r", WINDOW)
    trends = digest.narrative.trends
    assert [(t.topic, t.count, t.baseline) for t in trends] == [("rocm", 3, 0.0)]  # two Qwen items: news
    assert trends[0].ratio is None  # new: nothing like it in the 7 days before


def test_activity_figures(store: Store) -> None:
    save(
        store,
        [
            issue_payload(1, START - 3 * DAY, user="old-hand"),
            issue_payload(2, INSIDE, user="old-hand"),
            issue_payload(3, INSIDE, user="newcomer", pr=True, merged=INSIDE + timedelta(hours=4),
                          association="FIRST_TIME_CONTRIBUTOR"),
            issue_payload(4, INSIDE, user="newcomer", pr=True, association="FIRST_TIME_CONTRIBUTOR"),
            issue_payload(5, START - 2 * DAY, user="someone", pr=True, merged=INSIDE + timedelta(hours=2)),
            issue_payload(6, INSIDE, user="renovate[bot]", pr=True, merged=INSIDE + timedelta(hours=1),
                          association="FIRST_TIMER"),  # a bot is no contributor, first-time or not
            issue_payload(7, INSIDE, user="asker", association="FIRST_TIMER"),  # a first issue counts too
            issue_payload(8, INSIDE, user="unmarked"),  # first seen here, but GitHub knows them: not first-time
            issue_payload(9, START - DAY, user="old-hand", pr=True, closed=INSIDE),  # closed unmerged
        ],
        comments(10, 2, INSIDE, 2, user="talker")  # talker0, talker1
        + comments(20, 2, INSIDE, 1, user="ci", bot=True)
        + comments(30, 2, START - timedelta(hours=1), 1, user="early"),  # before the window
    )
    activity = build(store).narrative.activity
    assert activity.contributors == 6  # old-hand, newcomer, asker, unmarked, talker0, talker1
    assert activity.first_time_contributors == 2  # newcomer and asker, as GitHub marks them
    # merged 3 (3, 5, 6) / (merged 3 + closed unmerged 1 (9)); new PRs (3, 4, 6) do not count
    assert activity.merge_rate == round(3 / 4, 2)
    # hours to merge: #6 1 h, #3 4 h, #5 2 days + 2 h + the gap to INSIDE
    hours = sorted([1.0, 4.0, (INSIDE + timedelta(hours=2) - (START - 2 * DAY)) / timedelta(hours=1)])
    assert activity.median_hours_to_merge == hours[1]


def test_no_prs_means_no_rates(store: Store) -> None:
    save(store, [issue_payload(1, INSIDE)])
    activity = build(store).narrative.activity
    assert activity.merge_rate is None and activity.median_hours_to_merge is None


def test_hot_items_say_new_today_or_how_many_days_running(store: Store) -> None:
    old = START - 5 * DAY
    save(
        store,
        [issue_payload(1, old), issue_payload(2, old), issue_payload(3, old), issue_payload(4, old),
         issue_payload(5, old), issue_payload(6, INSIDE - timedelta(hours=1))],
        comments(100, 1, INSIDE, 3)  # #1: hot today only, opened long ago: no badge
        + comments(200, 2, INSIDE, 3) + comments(210, 2, INSIDE - DAY, 3) + comments(220, 2, INSIDE - 2 * DAY, 3)
        + comments(300, 3, INSIDE, 3) + comments(310, 3, INSIDE - 2 * DAY, 5)  # a quiet day breaks the streak
        + comments(400, 4, INSIDE, 3) + comments(410, 4, INSIDE - DAY, 5, bot=True)  # bot chatter is not heat
        + comments(500, 5, INSIDE, 3) + comments(510, 5, INSIDE - DAY, 5, same_person=True)  # a monologue
        + comments(600, 6, INSIDE, 3),  # #6: opened in the window: new today
    )
    digest = build(store)
    streaks = {item.number: item.streak_days for item in digest.section("hot").items}
    assert streaks == {1: None, 2: 3, 3: None, 4: None, 5: None, 6: 1}
    assert all(item.streak_days is None for section in digest.sections if section.id != "hot"
               for item in section.items)
    hot_json = next(s for s in digest_to_dict(digest)["sections"] if s["id"] == "hot")["items"]
    assert {item["number"]: item.get("streak_days") for item in hot_json} == streaks
    text = render_markdown(digest)
    assert text.count("🆕 new today") == 1 and text.count("🔁 hot 3 days running") == 1


def test_summary_names_counts_focus_and_the_hottest_item_in_both_locales(store: Store) -> None:
    save(
        store,
        [rocm(1, INSIDE), rocm(2, INSIDE), issue_payload(3, INSIDE, pr=True, merged=INSIDE + timedelta(hours=1)),
         issue_payload(4, INSIDE, title="Server hangs after 10 requests", labels=("bug",))],
        comments(10, 2, INSIDE, 5),
    )
    summary = build(store).narrative.summary
    assert summary.startswith("Busy day: 1 new PR, 1 merged; 3 new issues, 0 closed.")
    assert "Busiest: AMD / ROCm (2)" in summary  # two items make no theme
    assert "The hottest discussion is #2 (5 new comments from 5 people)" in summary
    assert "New bug to watch: #4 (hang); key change: #3." in summary
    zh = build(store, locale="zh-CN").narrative.summary
    assert zh.startswith("今天活跃度很高：新 PR 1 个，合并 1 个；新 Issue 3 个，关闭 0 个。")
    assert "最活跃的是 AMD / ROCm（2 项）" in zh
    assert "讨论最热的是 #2（5 条新评论，5 人参与）" in zh and "值得关注的新 bug 是 #4（卡死）" in zh
    assert 3 <= summary.count(". ") + 1 <= 5


def test_summary_reads_the_bug_kind_from_the_typed_reason() -> None:
    bug = DigestItem(4, "issue", "t", "u", "a", ("bug",), "", "new", why=NewBug("wrong_output", 2))
    digest = Digest("o/r", WINDOW, Stats(new_issues=1), (Section.builtin("notable", (bug,)),))
    assert "New bug to watch: #4 (wrong output)." in render_summary(digest, (), Activity(), [])
    zh = structs.replace(digest, locale="zh")  # any Chinese tag reads zh-CN
    assert "值得关注的新 bug 是 #4（输出错误）。" in render_summary(zh, (), Activity(), [])
    untyped = structs.replace(bug, why=None)  # a hand-made item: no kind shown
    bare = structs.replace(digest, sections=(Section.builtin("notable", (untyped,)),))
    assert "New bug to watch: #4." in render_summary(bare, (), Activity(), [])


def test_mood_compares_today_with_the_days_before() -> None:
    assert mood((10, 10, 10, 20)) == "busy"
    assert mood((10, 10, 10, 5)) == "quiet"
    assert mood((10, 10, 10, 11)) == "steady"
    assert mood((0, 0, 3)) == "busy" and mood((0, 0, 0)) == "quiet" and mood(()) == "steady"


def test_json_contract_and_renderers_carry_the_narrative(store: Store) -> None:
    save(store, [rocm(1, INSIDE), rocm(2, INSIDE), rocm(3, INSIDE)], comments(10, 1, INSIDE, 3))
    digest = build(store)
    data = json.loads(render_json(digest))["narrative"]
    assert set(data) >= {"summary", "trends", "activity", "themes"}
    assert data["trends"] == [{"topic": "rocm", "title": "AMD / ROCm", "count": 3, "baseline": 0.0,
                               "items": [1, 3, 2]}]
    assert data["themes"][0]["topics"] == ["rocm"] and sorted(data["themes"][0]["items"]) == [1, 2, 3]
    assert data["themes"][0]["new"] is True  # nothing in the days before: new, not "infinitely above usual"
    assert set(data["activity"]) >= {"contributors", "first_time_contributors", "merge_rate",
                                     "median_hours_to_merge"}
    text = render_markdown(digest)
    assert data["summary"].split(":")[0] in text and "## 📊 Themes" in text and "🆕 new today" in text
    assert "**AMD / ROCm** (3 items" in text


def test_narrative_can_be_turned_off(store: Store) -> None:
    save(store, [rocm(1, INSIDE)])
    assert build(store, narrative=False).narrative is None
    assert "narrative" not in digest_to_dict(build(store, narrative=False))


def test_a_channels_topics_narrow_trends_like_sections(store: Store) -> None:
    save(store, [rocm(1, INSIDE), rocm(2, INSIDE), rocm(5, INSIDE), qwen(3, INSIDE), qwen(4, INSIDE),
                 qwen(6, INSIDE)])
    digest = build(store, taxonomy=TAXONOMY.restricted(["qwen"]))
    assert [trend.topic for trend in digest.narrative.trends] == ["qwen"]
    assert [s.id for s in digest.sections if s.id.startswith("topic:")] == ["topic:qwen"]


def test_whole_synced_days_are_counted_once_then_read_back(store: Store) -> None:
    from sqlalchemy import delete, func, select

    from bot.github.payloads import item_from_payload
    from bot.store import schema
    from bot.topics.items import classify

    payloads = [rocm(1, START - 2 * DAY), rocm(2, START - DAY + timedelta(hours=1)), rocm(3, INSIDE)]
    store.save_page([classify(TAXONOMY, item_from_payload("o/r", p, is_bot)) for p in payloads])  # as the sync does
    digest = build(store)
    history = History(store)
    first = topic_baselines(history, digest, TAXONOMY, is_bot, None, complete_until=START - DAY / 2)
    with store.engine.begin() as conn:
        cached = conn.execute(select(func.count()).select_from(schema.topic_days)).scalar_one()
        assert cached == 6  # the last day ends after the sync's end: still open, not kept
        conn.execute(delete(schema.items).where(schema.items.c.number < 3))
    again = topic_baselines(history, digest, TAXONOMY, is_bot, None, complete_until=START - DAY / 2)
    assert again["rocm"] == first["rocm"] - 1 / 7  # six days from the cache; the open day was read again
    assert topic_baselines(history, digest, TAXONOMY, is_bot, None, bots_key="other")["rocm"] == 0  # own key


def test_a_longer_window_compares_with_as_many_usual_days(store: Store) -> None:
    from bot.model import Window

    week = Window(START - 6 * DAY, START + DAY, "Asia/Shanghai")
    save(store, [rocm(100 + k, START - (7 + k) * DAY + timedelta(hours=3)) for k in range(7)]  # 1 a day before
         + [rocm(k, START - k * DAY + timedelta(hours=3)) for k in range(7)]  # and 1 a day in the week
         + [qwen(200 + k, START - (7 + k) * DAY + timedelta(hours=3)) for k in range(7)]  # 1 a day before
         + [qwen(300 + k, START - (k // 2) * DAY + timedelta(hours=3)) for k in range(14)])  # 2 a day in the week
    digest = DigestBuilder(store, TAXONOMY, BuildOptions(), is_bot=is_bot).build("o/r", week)
    assert [t.topic for t in digest.narrative.trends] == ["qwen"]  # ROCm is as usual: 7 items in 7 days
    trend = digest.narrative.trends[0]
    assert (trend.count, trend.baseline, trend.window_days, trend.ratio) == (14, 1.0, 7.0, 2.0)
    assert digest.narrative.summary.startswith("Busy period") or "period" in digest.narrative.summary


def test_streaks_step_back_by_local_days_across_a_dst_change(store: Store) -> None:
    from zoneinfo import ZoneInfo

    from bot.digest.window import daily_window

    berlin = ZoneInfo("Europe/Berlin")
    end = datetime(2025, 3, 31, 11, 5, tzinfo=berlin)  # yesterday (to 30 March 11:05) had 23 hours
    window = daily_window(end, berlin)
    yesterday = daily_window(end - DAY, berlin)
    assert yesterday.end - yesterday.start == timedelta(hours=23)
    save(
        store,
        [issue_payload(1, window.start - 5 * DAY), issue_payload(2, window.start - 5 * DAY)],
        comments(10, 1, window.start + timedelta(hours=1), 3)
        + comments(20, 1, yesterday.start + timedelta(minutes=10), 3)  # #1: hot yesterday too
        + comments(30, 2, window.start + timedelta(hours=1), 3)
        + comments(40, 2, yesterday.start - timedelta(minutes=30), 3),  # #2: the day before, not yesterday
    )
    digest = DigestBuilder(store, TAXONOMY, BuildOptions(), is_bot=is_bot).build("o/r", window)
    # Stepping back 24 h instead of one local day would count #2's comments as yesterday's.
    assert {item.number: item.streak_days for item in digest.section("hot").items} == {1: 2, 2: None}


def test_a_muted_topic_leaves_sections_highlights_and_summary_but_not_the_counts(store: Store) -> None:
    save(
        store,
        [rocm(1, INSIDE), issue_payload(2, INSIDE, title="Server hangs with Qwen3", labels=("bug",)),
         issue_payload(3, INSIDE, title="[ROCm] Fix MI300X kernel", pr=True, merged=INSIDE + timedelta(hours=1))],
        comments(10, 1, INSIDE, 4) + comments(20, 2, INSIDE, 3),
    )
    muted = TAXONOMY.restricted(["rocm"])
    kept = TAXONOMY.restricted([t for t in TAXONOMY.ids() if t != "rocm"])
    digest = DigestBuilder(store, kept, BuildOptions(), is_bot=is_bot, muted=muted).build("o/r", WINDOW)
    assert digest.section("topic:rocm") is None
    assert [i.number for i in digest.section("hot").items] == [2]
    assert all(i.number != 3 for i in digest.section("key_changes").items)
    assert "#1" not in digest.narrative.summary and "#2 (3 new comments" in digest.narrative.summary
    assert digest.stats.new_issues == 2 and [i.number for i in digest.appendix["merged_prs"]] == [3]


def test_a_quiet_day_still_gets_two_sentences(store: Store) -> None:
    save(store, [issue_payload(1, INSIDE, title="Question about something")])
    summary = build(store).narrative.summary
    assert summary.endswith("No topic stood out and no thread drew a discussion.")
    assert summary.count(". ") == 1


def test_no_trends_until_five_of_the_seven_days_before_were_synced(store: Store) -> None:
    save(store, [rocm(n, INSIDE) for n in range(1, 6)])
    for listing in ("issues", "comments"):
        store.complete_listing("o/r", listing, START + DAY, [], synced_from=START - 4 * DAY)
    assert build(store).narrative.trends == ()  # four whole days of history: "usual" means nothing yet
    for listing in ("issues", "comments"):  # a later sync that reached a day further back
        store.complete_listing("o/r", listing, START + DAY, [], synced_from=START - 5 * DAY)
    assert [(t.topic, t.count, t.baseline) for t in build(store).narrative.trends] == [("rocm", 5, 0.0)]


def _topic(topic: str, count: int) -> Section:
    items = tuple(DigestItem(n, "issue", "t", "u", "a", (), "", "open") for n in range(1, count + 1))
    return Section.for_topic(topic, topic.upper(), items)


def test_a_trend_is_well_above_usual_with_three_items_and_at_most_five_are_listed() -> None:
    from bot.digest.narrative import TREND_MAX, rank_trends

    sections = [_topic("a", 3), _topic("b", 9), _topic("c", 14), _topic("d", 2), _topic("e", 4), _topic("f", 6),
                _topic("g", 5), _topic("h", 8), _topic("i", 3)]
    usual = {"a": 1.0, "b": 4.0, "c": 10.0, "d": 0.0, "e": 1.0, "f": 2.0, "g": 0.0, "h": 2.0, "i": 0.0}
    trends = rank_trends(sections, usual, 1.0)
    # New topics first (the larger first), then by ratio, then by count: h and e are both 4x their usual, f and
    # a 3x (a is sixth: left out); b is 2.25x; c is 1.4x its usual: not well above; d is new with two items only.
    assert [(t.topic, t.count) for t in trends] == [("g", 5), ("i", 3), ("h", 8), ("e", 4), ("f", 6)]
    assert len(trends) == TREND_MAX == 5
    # A two-day window compares with twice the usual: b (9 against 8) falls short, a (3 against 2) just makes it.
    few = [_topic("a", 3), _topic("b", 9), _topic("c", 14)]
    assert [t.topic for t in rank_trends(few, usual, 1.0)] == ["a", "b"]
    assert [t.topic for t in rank_trends(few, usual, 2.0)] == ["a"]
    assert rank_trends(sections, {}, 1.0) == ()  # no history: no trends
