// What a scenario is and what it reports. A scenario is one file in bench/scenarios/ exporting
// `scenario`; the runner finds it there, so adding one is adding that file.
import type { LargeDatabase } from './datasets';

export interface Figure {
  label: string;
  /** Already formatted, units included. */
  value: string;
}

export interface RatioCheck {
  /** e.g. "Atelier / raw insert rate". */
  name: string;
  value: number;
  /** e.g. "≥ 0.3×". */
  target: string;
  pass: boolean;
}

export interface ScenarioResult {
  /** unavailable: the scenario cannot run yet (nothing to measure). */
  status: 'measured' | 'unavailable';
  figures: Figure[];
  checks: RatioCheck[];
  /** For a scenario without a target: the figure the summary shows in its place. */
  headline?: { name: string; value: string };
  /** How it was measured, and for a missed target, why. */
  notes: string[];
}

export interface ScenarioContext {
  /** A temporary folder of this run, deleted at its end. */
  tempDir: string;
  /** The 1,000,000-trajectory database, built on first use and shared by the scenarios of one run. */
  largeDatabase(): Promise<LargeDatabase>;
  log(message: string): void;
}

export interface Scenario {
  name: string;
  /** Position in the report and in a full run. */
  order: number;
  title: string;
  /** One line: what is measured against what. */
  measures: string;
  run(ctx: ScenarioContext): Promise<ScenarioResult>;
}
