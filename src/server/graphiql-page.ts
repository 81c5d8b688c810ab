// The GraphiQL page at GET /graphql: yoga's offline GraphiQL (its bundle, styles and Monaco workers
// inlined, nothing from a CDN), rendered with the tab's sessionStorage as GraphiQL's storage. By
// default GraphiQL keeps its tabs and the Headers tab, and so a pasted API key, in localStorage
// (`graphiql:headers`), across browser restarts and for every later page of the origin. Here the
// headers stay in this tab until it closes, as the dashboard's key does; what an older page left in
// localStorage under `graphiql:` is removed when the page opens.
import type { GraphiQLOptions } from 'graphql-yoga';

const escapeScript = (json: string) => json.replace(/</g, '\\u003c');

const pages = new Map<string, Promise<string>>();

/** The page, for yoga's renderGraphiQL; the 9 MB bundle is imported (and the page built) when GraphiQL is first opened. */
export function renderGraphiQLPage(opts: GraphiQLOptions | undefined): Promise<string> {
  const key = JSON.stringify(opts ?? {});
  let page = pages.get(key);
  if (!page) {
    page = build(opts);
    page.catch(() => pages.delete(key));
    if (pages.size < 8) pages.set(key, page);
  }
  return page;
}

async function build(opts: GraphiQLOptions | undefined): Promise<string> {
  const { css, editorWorkerService, favicon, graphqlWorker, js, jsonWorker } =
    await import('@graphql-yoga/render-graphiql/graphiql');
  const title = typeof opts?.title === 'string' ? opts.title : 'GraphiQL';
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${title.replace(/[<>&"]/g, '')}</title>
    <link rel="icon" href="${favicon}" />
    <style>
      ${css}
    </style>
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>You need to enable JavaScript to run this app.</noscript>
    <div id="root"></div>
    <script>
      function prepareBlob(workerContent) {
        return URL.createObjectURL(new Blob([workerContent], { type: 'application/javascript' }));
      }
      const workers = {
        editorWorkerService: prepareBlob(${escapeScript(JSON.stringify(editorWorkerService))}),
        json: prepareBlob(${escapeScript(JSON.stringify(jsonWorker))}),
        graphql: prepareBlob(${escapeScript(JSON.stringify(graphqlWorker))}),
      };
      self['MonacoEnvironment'] = {
        globalAPI: false,
        getWorkerUrl: function (moduleId, label) {
          return workers[label];
        },
      };
      ${js};
      // Keys typed in the Headers tab stay in this tab: nothing of GraphiQL's is kept in localStorage.
      for (const name of Object.keys(localStorage)) if (name.startsWith('graphiql:')) localStorage.removeItem(name);
      YogaGraphiQL.renderYogaGraphiQL(window.document.querySelector('#root'), {
        ...${escapeScript(JSON.stringify(opts ?? {}))},
        storage: window.sessionStorage,
        shouldPersistHeaders: true,
      });
    </script>
  </body>
</html>
`;
}
