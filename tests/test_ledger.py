"""The delivery ledger on SQLite and PostgreSQL: claims, outcomes, lease takeovers, racing claimers."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest

from bot.delivery.ledger import (
    CLAIMED,
    DONE,
    DUE,
    FAILED,
    SENT,
    SKIPPED,
    WAIT,
    DeliveryKey,
    LeaseLost,
    Ledger,
)
from bot.store.store import Store

T0 = datetime(2025, 6, 2, 3, 5, tzinfo=UTC)
WINDOW_START = T0 - timedelta(days=1)
LEASE = timedelta(minutes=2)


class Clock:
    def __init__(self, now: datetime = T0) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> None:
        self.now += delta


def key(target: str = "C1", kind: str = "channel") -> DeliveryKey:
    return DeliveryKey("slack", target, "o/r", kind, WINDOW_START)


def ledger(store: Store, clock: Clock, owner: str) -> Ledger:
    return Ledger(store, owner=owner, lease=LEASE, max_attempts=4, clock=clock)


def test_claim_record_complete_and_everyone_else_skips(store: Store) -> None:
    clock = Clock()
    a, b = ledger(store, clock, "a"), ledger(store, clock, "b")
    claim = a.claim(key(), T0)
    assert claim is not None and claim.attempt == 1 and not claim.takeover and claim.message_ids == []
    assert b.claim(key(), T0) is None  # another process
    assert a.claim(key(), T0) is None  # a retry by the same process
    a.record_part(claim, "1.1")
    a.record_part(claim, "1.2")
    row = a.get(key())
    assert row is not None and row.status == CLAIMED and row.message_ids == ("1.1", "1.2") and row.parts_sent == 2
    a.complete(claim)
    row = a.get(key())
    assert row is not None and row.status == SENT and row.completed_at == T0 and row.lease_until is None
    clock.advance(timedelta(days=1))  # long after the lease: a sent row is never claimed again
    assert b.claim(key(), T0) is None
    assert b.state(key()) == DONE
    assert b.last_sent() == {("slack", "C1"): T0}
    # Other keys are independent: another target, kind or window.
    assert b.claim(key("C2"), T0) is not None
    assert b.claim(DeliveryKey("slack", "C1", "o/r", "channel", WINDOW_START + timedelta(days=1)), T0) is not None


def test_skip_is_final_and_fail_is_retried_after_its_delay(store: Store) -> None:
    clock = Clock()
    a, b = ledger(store, clock, "a"), ledger(store, clock, "b")
    skipped = a.claim(key("C1"), T0)
    assert skipped is not None
    a.skip(skipped, "channel_not_found")
    clock.advance(timedelta(hours=1))
    assert b.claim(key("C1"), T0) is None
    row = b.get(key("C1"))
    assert row is not None and row.status == SKIPPED and row.last_error == "channel_not_found"

    failed = a.claim(key("C2"), T0)
    assert failed is not None
    a.record_part(failed, "9.1")
    a.fail(failed, "ratelimited", retry_in=timedelta(minutes=5))
    assert b.state(key("C2")) == WAIT
    clock.advance(timedelta(minutes=4))
    assert b.claim(key("C2"), T0) is None  # not yet
    clock.advance(timedelta(minutes=1))
    assert b.state(key("C2")) == DUE
    retry = b.claim(key("C2"), T0)
    assert retry is not None and retry.takeover and retry.attempt == 2 and retry.message_ids == ["9.1"]
    with pytest.raises(LeaseLost):
        a.complete(failed)  # the old attempt may not settle the row any more
    b.complete(retry)
    assert b.get(key("C2")).status == SENT  # type: ignore[union-attr]


def test_expired_lease_is_taken_over_and_resumes_after_the_recorded_parts(store: Store) -> None:
    clock = Clock()
    crashed, successor = ledger(store, clock, "pid1@host/a"), ledger(store, clock, "pid2@host/b")
    claim = crashed.claim(key(), T0)
    assert claim is not None
    crashed.record_part(claim, "100.1")
    crashed.record_part(claim, "100.2")  # then the process dies
    clock.advance(LEASE - timedelta(seconds=1))
    assert successor.claim(key(), T0) is None  # the lease still holds
    assert successor.state(key()) == WAIT
    clock.advance(timedelta(seconds=2))
    assert successor.state(key()) == DUE
    taken = successor.claim(key(), T0)
    assert taken is not None and taken.takeover and taken.attempt == 2
    assert taken.message_ids == ["100.1", "100.2"]  # resume with part 3, in the thread of 100.1
    # The stalled first claimer wakes up: every write it tries is refused (fencing on attempts).
    with pytest.raises(LeaseLost):
        crashed.record_part(claim, "100.3")
    with pytest.raises(LeaseLost):
        crashed.renew(claim)
    with pytest.raises(LeaseLost):
        crashed.complete(claim)
    successor.record_part(taken, "100.3")
    successor.complete(taken)
    row = successor.get(key())
    assert row is not None and row.status == SENT and row.message_ids == ("100.1", "100.2", "100.3")
    assert row.claimed_by == "pid2@host/b" and row.attempts == 2


def test_record_part_extends_the_lease(store: Store) -> None:
    clock = Clock()
    a, b = ledger(store, clock, "a"), ledger(store, clock, "b")
    claim = a.claim(key(), T0)
    assert claim is not None
    clock.advance(LEASE - timedelta(seconds=10))
    a.record_part(claim, "1")
    clock.advance(timedelta(seconds=30))  # past the first lease, within the renewed one
    assert b.claim(key(), T0) is None
    a.renew(claim)
    clock.advance(LEASE - timedelta(seconds=1))
    assert b.claim(key(), T0) is None


def test_gives_up_after_max_attempts(store: Store) -> None:
    clock = Clock()
    workers = [ledger(store, clock, f"w{n}") for n in range(6)]
    attempts = []
    for worker in workers:
        claim = worker.claim(key(), T0)
        if claim is None:
            break
        attempts.append(claim.attempt)
        worker.fail(claim, "fatal_error")
    assert attempts == [1, 2, 3, 4]
    assert workers[0].state(key()) == DONE
    assert workers[0].outlook(WINDOW_START) == {("slack", "C1", "o/r", "channel"): DONE}


def test_outlook_pending_and_prune(store: Store) -> None:
    clock = Clock()
    a = ledger(store, clock, "a")
    sent = a.claim(key("U1", "dm:aaa"), T0)
    assert sent is not None
    a.complete(sent)
    in_flight = a.claim(key("U2", "dm:aaa"), T0)
    assert in_flight is not None
    failed = a.claim(key("U3", "dm:bbb"), T0)
    assert failed is not None
    a.fail(failed, "ratelimited")
    a.claim(key("C1"), T0)
    outlook = a.outlook(WINDOW_START, kind_prefix="dm:")
    assert outlook == {("slack", "U1", "o/r", "dm:aaa"): DONE, ("slack", "U2", "o/r", "dm:aaa"): WAIT,
                       ("slack", "U3", "o/r", "dm:bbb"): DUE}
    assert set(a.outlook(WINDOW_START, kind="channel")) == {("slack", "C1", "o/r", "channel")}
    assert a.outlook(WINDOW_START, platforms=["discord"]) == {}
    assert {(row.key.target, row.status) for row in a.pending()} == {("U2", CLAIMED), ("U3", FAILED),
                                                                     ("C1", CLAIMED)}
    # Pruning drops finished rows of old windows only.
    assert a.prune(WINDOW_START) == 0
    assert a.prune(WINDOW_START + timedelta(seconds=1)) == 1
    assert a.get(key("U1", "dm:aaa")) is None and a.get(key("U2", "dm:aaa")) is not None


def _second_store(store: Store) -> Store:
    return Store.open(store.engine.url.render_as_string(hide_password=False))


def test_racing_claimers_exactly_one_wins(store: Store) -> None:
    """Two processes (two engines) in two threads claim the same keys at the same moment: one winner each,
    both for fresh rows (INSERT) and for expired leases (conditional UPDATE)."""
    clock = Clock()
    other = _second_store(store)
    try:
        racers = [ledger(store, clock, "left"), ledger(other, clock, "right")]
        keys = [key(f"U{n}", "dm:race") for n in range(25)]

        def race(phase: str) -> dict[DeliveryKey, list[str]]:
            barrier = threading.Barrier(2)
            winners: dict[DeliveryKey, list[str]] = {k: [] for k in keys}
            errors: list[BaseException] = []

            def run(racer: Ledger) -> None:
                try:
                    for k in keys:
                        barrier.wait(timeout=10)
                        if racer.claim(k, T0) is not None:
                            winners[k].append(racer.owner)
                except BaseException as err:  # surfaced below
                    errors.append(err)
                    barrier.abort()

            threads = [threading.Thread(target=run, args=(racer,)) for racer in racers]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=30)
            assert not errors, f"{phase}: {errors}"
            return winners

        fresh = race("insert")
        assert all(len(names) == 1 for names in fresh.values()), fresh
        clock.advance(LEASE + timedelta(seconds=1))  # every claim above is now orphaned
        takeover = race("takeover")
        assert all(len(names) == 1 for names in takeover.values()), takeover
        rows = [racers[0].get(k) for k in keys]
        assert all(row is not None and row.attempts == 2 for row in rows)
    finally:
        other.close()
