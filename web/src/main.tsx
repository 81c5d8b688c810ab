// The dashboard's shell: header and navigation, the SIMULATED banner, the API key prompt (shown
// when the server asks for a key; the key is kept in sessionStorage only), and the three views.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';

import { apiKey, gql, onAuthNeeded, onKeyChanged, setApiKey } from './api';
import { ComparePage } from './compare-page';
import { SERVER_INFO, type ServerInfoData } from './queries';
import { Link, useLocation } from './router';
import { RunPage } from './run-page';
import { RunsPage } from './runs-page';

import './style.css';

/** The server marks a simulated deployment in the page itself, so the banner shows before any key is entered. */
const simulatedByPage = document.querySelector('meta[name="atelier-simulated"]')?.getAttribute('content') === 'true';

function App() {
  const url = useLocation();
  const [needKey, setNeedKey] = useState<string | null>(null);
  const [info, setInfo] = useState<ServerInfoData | null>(null);
  const [keyVersion, setKeyVersion] = useState(0);

  useEffect(() => onAuthNeeded((reason) => setNeedKey(reason)), []);
  useEffect(() => onKeyChanged(() => setKeyVersion((v) => v + 1)), []);
  useEffect(() => {
    gql<ServerInfoData>(SERVER_INFO).then(setInfo, () => setInfo(null));
  }, [keyVersion]);

  const simulated = simulatedByPage || info?.server.simulated === true;
  const path = url.pathname;
  let page;
  const runMatch = /^\/runs\/([^/]+)\/?$/.exec(path);
  if (runMatch) page = <RunPage id={decodeURIComponent(runMatch[1])} />;
  else if (path === '/compare') page = <ComparePage url={url} />;
  else if (path === '/' || path === '') page = <RunsPage url={url} />;
  else
    page = (
      <section class="page">
        <p>
          Nothing here. <Link href="/">All runs</Link>
        </p>
      </section>
    );

  return (
    <>
      {simulated && (
        <div class="simulated" role="status" data-testid="simulated-banner">
          <strong>SIMULATED</strong> — the model provider and the ART backend are simulators on this machine: no GPU, no
          real training. Curves and trajectories are made up.
        </div>
      )}
      <header class="top">
        <Link href="/" class="brand">
          Atelier
        </Link>
        <nav aria-label="main">
          <Link href="/">Runs</Link>
          <Link href="/compare">Compare</Link>
          <a href="/graphql">GraphiQL</a>
        </nav>
        <span class="spacer" />
        {info && <span class="muted small">v{info.server.version}</span>}
        <KeyStatus info={info} />
      </header>
      <main>
        {needKey ? <KeyPrompt reason={needKey} onDone={() => setNeedKey(null)} /> : <div key={keyVersion}>{page}</div>}
      </main>
    </>
  );
}

function KeyStatus({ info }: { info: ServerInfoData | null }) {
  const key = apiKey();
  if (!key)
    return info?.viewer.openAccess ? (
      <span class="muted small">open access (no key needed on this machine)</span>
    ) : null;
  return (
    <span class="small key-status">
      key {info?.viewer.keyName ? `“${info.viewer.keyName}”` : ''} {info ? `(${info.viewer.scope.toLowerCase()})` : ''}{' '}
      <button type="button" class="link" onClick={() => setApiKey(null)}>
        forget
      </button>
    </span>
  );
}

function KeyPrompt({ reason, onDone }: { reason: string; onDone: () => void }) {
  const [value, setValue] = useState('');
  return (
    <section class="page narrow-page">
      <h1>API key</h1>
      <p class="muted">{reason}</p>
      <p>
        Enter an API key (<code>npm run keys -- create --name me --scope write</code> makes one). It is kept in this tab
        only (sessionStorage) and sent to this server alone.
      </p>
      <form
        class="key-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!value.trim()) return;
          setApiKey(value.trim());
          onDone();
        }}
      >
        <label>
          API key{' '}
          <input
            name="apiKey"
            type="password"
            autocomplete="off"
            value={value}
            onInput={(e) => setValue((e.target as HTMLInputElement).value)}
          />
        </label>
        <button type="submit" class="primary">
          Use this key
        </button>
      </form>
    </section>
  );
}

render(<App />, document.getElementById('app')!);
