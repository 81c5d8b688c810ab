// Client-side routing over the History API: `/`, `/runs/<id>` and `/compare` are one page
// (the server answers index.html for each), and links change the view without a reload.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export function navigate(href: string): void {
  if (href === location.pathname + location.search) return;
  history.pushState(null, '', href);
  dispatchEvent(new PopStateEvent('popstate'));
}

export function useLocation(): URL {
  const [url, setUrl] = useState(() => new URL(location.href));
  useEffect(() => {
    const update = () => setUrl(new URL(location.href));
    addEventListener('popstate', update);
    return () => removeEventListener('popstate', update);
  }, []);
  return url;
}

export function Link(props: { href: string; class?: string; children: ComponentChildren; title?: string }) {
  return (
    <a
      href={props.href}
      class={props.class}
      title={props.title}
      onClick={(e) => {
        if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(props.href);
      }}
    >
      {props.children}
    </a>
  );
}
