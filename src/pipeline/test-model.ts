// testTrainedModel: runs a finished pipeline run's trained model on a new input, the seed's
// TaskInput(step=999, input_text=...) pattern from ART's notebooks, and stores the exchange as a
// trajectory marked as a test.
import { ConflictError, NotFoundError } from '../errors';
import type { ChatMessage } from '../providers/chat';
import { ProviderError } from '../providers/http';
import type { PipelineDeps } from './deps';

export const TEST_STEP = 999;

export async function testTrainedModel(
  deps: PipelineDeps,
  runId: number,
  inputText: string,
  signal?: AbortSignal,
  checkpointStep: number | null = null,
): Promise<{ reply: string; uuid: string }> {
  try {
    return await runTest(deps, runId, inputText, signal, checkpointStep);
  } catch (err) {
    // A provider's answer is shown to the client: make sure no key travels with it.
    if (err instanceof ProviderError) throw new ProviderError(deps.redact(err.message), err.status, err.transient);
    throw err;
  }
}

async function runTest(
  deps: PipelineDeps,
  runId: number,
  inputText: string,
  signal: AbortSignal | undefined,
  checkpointStep: number | null,
): Promise<{ reply: string; uuid: string }> {
  const run = await deps.runs.get(runId);
  if (run.mode !== 'pipeline' || run.status !== 'completed' || !run.trainedModelName) {
    throw new ConflictError(
      `run ${run.uuid} has no trained model to test: only a COMPLETED pipeline run has one (this one is ${run.mode.toUpperCase()}, ${run.status.toUpperCase()})`,
    );
  }
  // A chosen checkpoint answers under the name recorded for it; a deleted one is gone from the backend.
  const checkpoint = checkpointStep === null ? null : await deps.checkpoints.at(run.id, checkpointStep);
  if (checkpointStep !== null && !checkpoint)
    throw new NotFoundError('checkpoint', `step ${checkpointStep} of run ${run.uuid}`);
  if (checkpoint?.deletedAt)
    throw new ConflictError(
      `checkpoint step ${checkpoint.step} of run ${run.uuid} was deleted at ${checkpoint.deletedAt}${checkpoint.deletionReason ? ` (${checkpoint.deletionReason})` : ''}; test a live one (run.checkpoints)`,
    );
  const backend = deps.backend(run.backend);
  const model = { name: run.trainedModelName, project: run.projectName, base_model: run.modelName };
  const inference = await backend.prepare(model, signal);
  const step = checkpoint ? checkpoint.step : await backend.currentStep(model, signal);
  const messages: ChatMessage[] = [
    ...(run.systemPrompt ? [{ role: 'system' as const, content: run.systemPrompt }] : []),
    { role: 'user', content: inputText },
  ];
  const inferenceModel = checkpoint ? checkpoint.name : inference.modelName(step);
  const choice = await deps
    .chat(inference.baseUrl, inference.apiKey, 'inference server')
    .complete({ model: inferenceModel, messages, temperature: 0 }, signal);
  const reply = choice.message.content ?? '';
  const result = await deps.trajectories.record(run.id, [
    {
      taskInput: { step: TEST_STEP, inputText, context: null },
      messages: [...messages, { role: 'assistant', content: reply }],
      reward: null,
      metadata: { kind: 'test', test: true, model: inferenceModel, checkpoint_step: step },
      choice,
    },
  ]);
  return { reply, uuid: result.uuids[0] };
}
