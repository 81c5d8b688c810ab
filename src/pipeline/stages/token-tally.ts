// Sums the token counts providers report in `usage` over one stage's calls (concurrent ones
// included), as the run's costs: `tokens/<who>/prompt` and `tokens/<who>/completion`.
import type { TokenUsage } from '../../providers/chat';

export class TokenTally {
  private prompt = 0;
  private completion = 0;
  private calls = 0;

  constructor(private readonly who: 'generator' | 'judge' | 'val_judge' | 'eval_judge') {}

  /** Hand to ChatClient.complete / completeJson as `onUsage`. */
  readonly add = (usage: TokenUsage): void => {
    this.prompt += usage.promptTokens;
    this.completion += usage.completionTokens;
    this.calls++;
  };

  /** Nothing when no call reported usage. */
  values(): Record<string, number> {
    if (this.calls === 0) return {};
    return { [`tokens/${this.who}/prompt`]: this.prompt, [`tokens/${this.who}/completion`]: this.completion };
  }
}
