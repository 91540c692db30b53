// The island loader: every <div data-island="Name" data-props='{json}'> the
// server renders gets the React component of that name mounted in place of
// its no-JavaScript fallback.
import { createRoot, type Root } from 'react-dom/client';
import type { ComponentType } from 'react';
import type { i18n } from 'i18next';
import { I18nContext } from './useT';

export type IslandComponent = ComponentType<any>;
export type Registry = Record<string, () => Promise<IslandComponent>>;

const roots = new WeakMap<Element, Root>();

// mountIslands mounts every island under scope that is not mounted yet and
// resolves once they are all rendered. An unknown name or bad props are
// reported on the console and leave the server's fallback in place.
export async function mountIslands(scope: ParentNode, registry: Registry, i18n: i18n): Promise<void> {
  const els = Array.from(scope.querySelectorAll<HTMLElement>('[data-island]'));
  if (scope instanceof HTMLElement && scope.matches('[data-island]')) els.unshift(scope);
  await Promise.all(
    els.map(async (el) => {
      if (roots.has(el)) return;
      const name = el.dataset.island || '';
      const load = registry[name];
      if (!load) {
        console.error(`island ${name}: not registered`);
        return;
      }
      let props: unknown = {};
      try {
        props = el.dataset.props ? JSON.parse(el.dataset.props) : {};
      } catch (err) {
        console.error(`island ${name}: bad props`, err);
        return;
      }
      const Component = await load();
      if (roots.has(el)) return;
      const root = createRoot(el);
      roots.set(el, root);
      el.dataset.islandMounted = 'true';
      root.render(
        <I18nContext.Provider value={i18n}>
          <Component {...(props as object)} />
        </I18nContext.Provider>,
      );
    }),
  );
}

// unmountIslands releases the React roots under scope before htmx removes it.
export function unmountIslands(scope: ParentNode): void {
  const els = Array.from(scope.querySelectorAll<HTMLElement>('[data-island]'));
  if (scope instanceof HTMLElement && scope.matches('[data-island]')) els.push(scope);
  for (const el of els) {
    roots.get(el)?.unmount();
    roots.delete(el);
  }
}
