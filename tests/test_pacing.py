"""The pace on its own: how answers' latencies move the width (no server: latencies are given)."""

from __future__ import annotations

import asyncio

from bot.analysis.pacing import WIDEN_AFTER, Pace, Widths


def test_slow_start_doubles_while_answers_keep_the_pace_alone() -> None:
    pace = Pace(4, key="e m", widths=Widths())
    assert pace.width == 1
    pace.answered(1.0, 1)
    assert pace.width == 2
    pace.answered(1.0, 2)
    pace.answered(1.1, 2)
    assert pace.width == 4


def test_slow_start_stops_at_the_width_before_the_first_queued_answers() -> None:
    widths = Widths()
    pace = Pace(4, key="e m", widths=widths)
    pace.answered(1.0, 1)
    pace.answered(1.0, 2)
    pace.answered(2.0, 2)  # the second of two waited for the first: one at a time
    assert pace.width == 1 and widths.get("e m") == 1
    # Kept for the endpoint and model: the next pace starts there, without a slow start.
    assert Pace(4, key="e m", widths=widths).width == 1
    assert Pace(4, key="other", widths=widths).width == 1  # a new endpoint: its own slow start
    fresh = Pace(4, key="other", widths=widths)
    fresh.answered(1.0, 1)
    assert fresh.width == 2


def test_queued_answers_narrow_a_wide_start_to_what_the_server_served() -> None:
    widths = Widths()
    widths.put("e m", 4)
    pace = Pace(4, key="e m", widths=widths)
    assert pace.width == 4
    pace.answered(1.0, 4)
    pace.answered(2.0, 4)  # within 2.5x the alone-time: answers of different lengths do that
    assert pace.width == 4
    pace.answered(4.0, 4)  # a server serving one at a time: the fourth of four took four times as long
    assert pace.width == 1


def test_a_probe_of_one_more_is_taken_back_when_answers_slow_down() -> None:
    widths = Widths()
    widths.put("k", 1)
    pace = Pace(4, key="k", widths=widths)
    for _ in range(WIDEN_AFTER):
        pace.answered(1.0, 1)
    assert pace.width == 2  # probing
    pace.answered(2.0, 2)  # the two queued behind each other
    assert pace.width == 1


def test_a_timeout_with_others_in_flight_halves_the_width() -> None:
    widths = Widths()
    widths.put("k", 4)
    pace = Pace(4, key="k", widths=widths)
    pace.timed_out(4)
    assert pace.width == 2
    pace.timed_out(1)  # alone: the server is slow, not queueing
    assert pace.width == 2


def test_without_measuring_the_width_is_the_configured_one() -> None:
    pace = Pace(4, measure=False, key="k", widths=Widths())
    assert pace.width == 4
    pace.answered(1.0, 1)
    pace.answered(10.0, 4)
    pace.timed_out(4)
    assert pace.width == 4


async def test_the_gate_is_fifo_and_follows_the_width() -> None:
    pace = Pace(2, measure=False, widths=Widths())
    order: list[int] = []

    async def call(n: int, hold: asyncio.Event) -> None:
        await pace.acquire()
        order.append(n)
        await hold.wait()
        pace.release()

    holds = [asyncio.Event() for _ in range(4)]
    tasks = [asyncio.create_task(call(n, holds[n])) for n in range(4)]
    await asyncio.sleep(0)  # let them all reach the gate
    await asyncio.sleep(0)
    assert order == [0, 1] and pace.in_flight == 2
    holds[1].set()
    await asyncio.wait_for(asyncio.shield(tasks[1]), 1)
    await asyncio.sleep(0)
    assert order == [0, 1, 2]
    waiting = asyncio.create_task(pace.acquire())
    await asyncio.sleep(0)
    waiting.cancel()  # a waiter cancelled before its turn takes no slot
    for hold in holds:
        hold.set()
    await asyncio.gather(*tasks)
    assert order == [0, 1, 2, 3] and pace.in_flight == 0
