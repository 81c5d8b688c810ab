// A run's name, tags, group and notes (editable, through updateRun), its config, summary metrics and
// costs: the part of a run's page that says which run this is and how it was set up.
import { useEffect, useState } from 'preact/hooks';

import { gql } from './api';
import { fmtReward } from './format';
import { RUN_IDENTITY, UPDATE_RUN, type RunIdentity } from './queries';
import { Link } from './router';

export function RunIdentityPanel({ id }: { id: string }) {
  const [run, setRun] = useState<RunIdentity | null>(null);
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const load = () =>
    gql<{ run: RunIdentity | null }>(RUN_IDENTITY, { id }).then(
      (d) => setRun(d.run),
      (e: Error) => setError(e.message),
    );
  useEffect(() => {
    void load();
  }, [id]);
  if (!run) return error ? <p class="error">{error}</p> : null;

  const save = async (form: HTMLFormElement) => {
    const data = new FormData(form);
    const text = (k: string) => String(data.get(k) ?? '').trim();
    const d = await gql<{ updateRun: { __typename: string; message?: string; issues?: { message: string }[] } }>(
      UPDATE_RUN,
      {
        id,
        name: text('name') || null,
        notes: text('notes') || null,
        group: text('group') || null,
        tags: text('tags')
          .split(/[\s,]+/)
          .filter(Boolean),
      },
    );
    if (d.updateRun.__typename !== 'UpdateRunPayload') {
      setError(d.updateRun.issues?.map((i) => i.message).join('; ') ?? d.updateRun.message ?? 'not saved');
      return;
    }
    setError(null);
    setEditing(false);
    await load();
  };

  return (
    <section class="block identity" aria-labelledby="identity-head">
      <h2 id="identity-head">
        {run.name ?? 'Unnamed run'}
        {run.group && <span class="muted small"> · group {run.group}</span>}
      </h2>
      <p class="tags">
        {run.tags.map((t) => (
          <Link key={t} class="tag run-tag" href={`/?q=${encodeURIComponent(`tag = ${t}`)}`}>
            {t}
          </Link>
        ))}
      </p>
      {run.notes && <p class="notes">{run.notes}</p>}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {editing ? (
        <form
          class="identity-form"
          onSubmit={(e) => {
            e.preventDefault();
            void save(e.currentTarget as HTMLFormElement);
          }}
        >
          <label>
            Name <input name="name" defaultValue={run.name ?? ''} />
          </label>
          <label>
            Tags <input name="tags" defaultValue={run.tags.join(' ')} aria-describedby="tags-help" />
          </label>
          <span id="tags-help" class="small muted">
            separated by spaces or commas
          </span>
          <label>
            Group <input name="group" defaultValue={run.group ?? ''} />
          </label>
          <label>
            Notes (Markdown) <textarea name="notes" rows={3} defaultValue={run.notes ?? ''} />
          </label>
          <span>
            <button type="submit" class="primary">
              Save
            </button>{' '}
            <button type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </span>
        </form>
      ) : (
        <button type="button" onClick={() => setEditing(true)}>
          Edit name, tags, group, notes
        </button>
      )}
      {run.summary.length > 0 && (
        <details class="block">
          <summary>Summary metrics ({run.summary.length})</summary>
          <div class="table-wrap">
            <table class="runs" aria-label="summary metrics">
              <thead>
                <tr>
                  <th scope="col">metric</th>
                  <th scope="col" class="num">
                    last
                  </th>
                  <th scope="col" class="num">
                    min
                  </th>
                  <th scope="col" class="num">
                    max
                  </th>
                  <th scope="col" class="num">
                    step
                  </th>
                </tr>
              </thead>
              <tbody>
                {run.summary.map((m) => (
                  <tr key={m.name}>
                    <th scope="row">{m.name}</th>
                    <td class="num">{fmtReward(m.last)}</td>
                    <td class="num">{fmtReward(m.min)}</td>
                    <td class="num">{fmtReward(m.max)}</td>
                    <td class="num">{m.step}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      )}
      {run.costs.length > 0 && (
        <details class="block">
          <summary>Costs</summary>
          <ul>
            {run.costs.map((c) => (
              <li key={c.name}>
                <code>{c.name}</code>: {Math.round(c.total * 1000) / 1000} over {c.steps} step{c.steps === 1 ? '' : 's'}
              </li>
            ))}
          </ul>
        </details>
      )}
      <details class="block">
        <summary>Config</summary>
        <pre class="prompt">{JSON.stringify(run.config, null, 2)}</pre>
      </details>
    </section>
  );
}
