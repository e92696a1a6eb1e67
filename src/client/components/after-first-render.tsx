import {
  type ReactNode,
  createContext,
  startTransition,
  useContext,
  useEffect,
  useState,
} from 'react';

/** Whether the app's first render is in the page; outside `FirstRenderGate` (a test's render), always. */
const FirstRenderDone = createContext(true);

/**
 * Tells `AfterFirstRender` whether the app's first render is in the page: not during that render
 * (nor during the server's, which draws the same), and from a second render on, made in a
 * transition of its own right after the first.
 */
export function FirstRenderGate({ children }: { children: ReactNode }) {
  const [done, setDone] = useState(false);
  useEffect(() => {
    startTransition(() => {
      setDone(true);
    });
  }, []);
  return <FirstRenderDone.Provider value={done}>{children}</FirstRenderDone.Provider>;
}

/**
 * `children` from the app's second render on, `first` in its first (decision 254). For the parts
 * that set state as they attach to the page (Mantine's popovers, menus and segmented control):
 * drawn in the first render, they make React finish it at once, running every effect of the
 * screen in the same long task; drawn in the second, they cost a short one. `first` looks the
 * same (the same button without its popover, say).
 */
export function AfterFirstRender({ first, children }: { first: ReactNode; children: ReactNode }) {
  return useContext(FirstRenderDone) ? children : first;
}
