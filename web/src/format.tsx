// Small formatting helpers shared by the pages.
import type { RunSummary, Status } from './queries';

export const fmtReward = (x: number | null | undefined) => (x == null ? '–' : x.toFixed(3));

export function fmtTime(iso: string | null | undefined): string {
  if (!iso) return '–';
  const d = new Date(iso);
  return d.toLocaleString(undefined, {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

export function fmtDuration(fromIso: string | null, toIso: string | null): string {
  if (!fromIso) return '–';
  const ms = (toIso ? new Date(toIso).getTime() : Date.now()) - new Date(fromIso).getTime();
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60
    ? `${s} s`
    : s < 3600
      ? `${Math.floor(s / 60)} min ${s % 60} s`
      : `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/** "step 3 of 12": the step being worked on (or the last one recorded) of the total, when known. */
export function stepOf(run: Pick<RunSummary, 'currentStep' | 'totalSteps' | 'metrics' | 'status'>): string {
  const total = run.totalSteps;
  const done = run.status === 'COMPLETED' && total != null ? total : null;
  const current = done ?? (run.currentStep != null ? run.currentStep + 1 : run.metrics ? run.metrics.step + 1 : null);
  if (current == null) return total != null ? `– of ${total}` : '–';
  return total != null ? `${Math.min(current, total)} of ${total}` : `${current}`;
}

export function StatusBadge({ status }: { status: Status }) {
  return <span class={`badge badge-${status.toLowerCase()}`}>{status}</span>;
}

/** A TRACKED run whose rows stopped arriving (its script or watcher may be hung). */
export function StalledBadge({ since }: { since: string | null }) {
  return (
    <span class="badge badge-stalled" data-testid="stalled" title={`no new rows since before ${fmtTime(since)}`}>
      STALLED
    </span>
  );
}
