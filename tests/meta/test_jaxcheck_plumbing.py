"""The command's plumbing, in-process: signals, the child's pipe, run folders, a failing database.

The end-to-end schedules (signals at awkward moments, two runs at once, a
dead redis, a full disk) are tests/meta/test_faults.py; these pin each
mechanism down on its own, in milliseconds.
"""

import os
import signal
import threading

import pytest
from hypothesis.database import InMemoryExampleDatabase

from jaxcheck import interrupt
from jaxcheck.channel import Receiver, Sender
from jaxcheck.database import Guarded
from jaxcheck.places import PlaceError, new_run_dir, writable_directory

pytestmark = pytest.mark.meta


@pytest.mark.parametrize("signum", interrupt.SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_each_stopping_signal_raises_once_and_the_next_lets_the_ending_finish(signum):
    with interrupt.handled() as handler:
        with pytest.raises(interrupt.Interrupted) as stopped:
            os.kill(os.getpid(), signum)
        os.kill(os.getpid(), signum)  # the second: noted, not raised
    assert stopped.value.signum == signum and handler.received == [signum, signum]
    assert interrupt.exit_status(stopped.value) == 128 + signum
    assert interrupt.exit_status(KeyboardInterrupt()) == 130


def test_the_pipe_carries_lines_longer_than_its_buffer_whole():
    read_end, write_end = os.pipe()
    sender, receiver = Sender(write_end), Receiver(read_end)
    long = "x" * 300_000  # past the 64 KiB a pipe holds: the reader must drain as it goes
    writer = threading.Thread(target=lambda: [sender.send("result", text=long),
                                              sender.send("start", nodeid="n")])
    writer.start()
    events = []
    while len(events) < 2:
        events += receiver.events()
    writer.join()
    os.close(write_end)
    receiver.close()
    assert events == [{"event": "result", "text": long}, {"event": "start", "nodeid": "n"}]


def test_two_runs_started_in_one_second_get_folders_of_their_own(tmp_path):
    first, second = (new_run_dir(tmp_path, "check", "mypkg:shim") for _ in range(2))
    assert first != second and first.is_dir() and second.is_dir()
    assert first.name.startswith("check-mypkg_shim-")


def test_a_folder_that_cannot_be_written_is_refused_naming_the_option(tmp_path):
    a_file = tmp_path / "file"
    a_file.write_text("")
    with pytest.raises(PlaceError, match="^--out .*: it exists and is not a directory"):
        writable_directory(a_file, "--out")
    with pytest.raises(PlaceError, match="^--db .*a part of it is a file"):
        writable_directory(a_file / "below", "--db")


class Broken(InMemoryExampleDatabase):
    """A database whose server went away: every call raises."""

    def __init__(self):
        super().__init__()
        self.down = True

    def _maybe_fail(self):
        if self.down:
            raise ConnectionError("Connection refused")

    def save(self, key, value):
        self._maybe_fail()
        super().save(key, value)

    def fetch(self, key):
        self._maybe_fail()
        return super().fetch(key)


def test_a_database_that_fails_is_reported_as_trouble_and_never_raises():
    told = []
    database = Guarded(Broken(), "redis://somewhere:6379", told.append)
    database.save(b"k", b"v")
    assert list(database.fetch(b"k")) == []  # resting after the failed save: not even tried
    assert len(told) == 1 and "redis://somewhere:6379 failed (ConnectionError" in told[0]
    database.inner.down = False
    database.resting_until = 0.0  # as if RETRY_SECONDS had passed
    database.save(b"k", b"v")  # the server is back: saved
    assert list(database.fetch(b"k")) == [b"v"]
