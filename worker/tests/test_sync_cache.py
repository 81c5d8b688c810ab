"""sync --watch hashes only the files that changed since its last pass."""
import hashlib
import os
import tempfile
import unittest
from unittest import mock

from atelier_worker import sync


class FolderFilesCache(unittest.TestCase):
    def test_unchanged_files_are_not_read_again_and_changed_ones_are(self):
        with tempfile.TemporaryDirectory() as folder:
            os.makedirs(os.path.join(folder, "trajectories", "train"))
            open(os.path.join(folder, "model.json"), "w").write('{"name": "m", "project": "p"}')
            old = os.path.join(folder, "trajectories", "train", "0001.parquet")
            open(old, "wb").write(b"one")
            history = os.path.join(folder, "history.jsonl")
            open(history, "w").write('{"step": 1}\n')
            cache: dict = {}
            real = sync.sha256_file
            with mock.patch.object(sync, "sha256_file", side_effect=real) as hashed:
                sync.folder_files(folder, cache)
                self.assertEqual(hashed.call_count, 3)
                hashed.reset_mock()
                open(history, "a").write('{"step": 2}\n')
                files = {f["path"]: f for f in sync.folder_files(folder, cache)}
                # only the grown history.jsonl was read again
                self.assertEqual([c.args[0] for c in hashed.call_args_list], [history])
                self.assertEqual(files["history.jsonl"]["sha256"], hashlib.sha256(open(history, "rb").read()).hexdigest())
                self.assertEqual(files["trajectories/train/0001.parquet"]["sha256"], hashlib.sha256(b"one").hexdigest())
                # without a cache every file is read, as a one-shot sync does
                hashed.reset_mock()
                sync.folder_files(folder)
                self.assertEqual(hashed.call_count, 3)


if __name__ == "__main__":
    unittest.main()
