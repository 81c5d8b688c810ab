// BUILTIN: today's single turn. The system prompt and the scenario's text, one completion of the
// model in training, kept as its choice (logprobs included); RULER scores the group.
import { AbortedError, ProviderError } from '../providers/http';
import type { Episode, EpisodeHooks, EpisodeResult, Rollout, RolloutDeps } from './types';

export class BuiltinRollout implements Rollout {
  readonly kind = 'builtin' as const;
  constructor(private readonly deps: RolloutDeps) {}

  async play(episode: Episode, hooks: EpisodeHooks): Promise<EpisodeResult> {
    const messages = [
      ...(episode.systemPrompt ? [{ role: 'system' as const, content: episode.systemPrompt }] : []),
      { role: 'user' as const, content: episode.scenario.input_text },
    ];
    const trajectory = {
      messages_and_choices: [...messages] as Array<Record<string, unknown>>,
      tools: null,
      reward: 0,
      metrics: {},
      metadata: {},
      logs: [],
    };
    try {
      const choice = await this.deps.chat.complete(
        { model: this.deps.model, messages, temperature: this.deps.temperature, logprobs: true },
        hooks.signal,
        () => hooks.onTurn(),
      );
      trajectory.messages_and_choices.push(choice);
      return { trajectory, reward: null, turns: 1 };
    } catch (err) {
      if (err instanceof AbortedError || hooks.signal.aborted) throw err;
      if (err instanceof ProviderError)
        return { trajectory, reward: null, turns: 0, error: this.deps.redact(err.message) };
      throw err;
    }
  }
}
