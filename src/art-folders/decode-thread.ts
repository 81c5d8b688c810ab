// The import's decode thread (started by decode-pool.ts): step files decoded into rows beside the
// server's event loop, which then only writes them. One message in, one reply out, by id.
import { parentPort } from 'node:worker_threads';

import { ValidationError } from '../errors';
import type { DecodeJob, DecodeReply } from './decode-pool';
import { decodeStepFile } from './decode-step';

parentPort!.on('message', async (job: DecodeJob) => {
  let reply: DecodeReply;
  try {
    const prepared = await decodeStepFile(job);
    // Only the rows go back (strings, cheap to copy); the checked groups stay here.
    reply = { id: job.id, total: prepared.total, rows: prepared.built!.rows };
  } catch (err) {
    reply =
      err instanceof ValidationError
        ? { id: job.id, issues: err.issues }
        : { id: job.id, message: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(reply);
});
parentPort!.postMessage({ ready: true });
