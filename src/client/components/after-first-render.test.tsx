import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AfterFirstRender, FirstRenderGate } from './after-first-render.tsx';

describe('AfterFirstRender', () => {
  it('draws its first form in the app’s first render, which the server draws too', () => {
    expect(
      renderToString(
        <FirstRenderGate>
          <AfterFirstRender first={<p>button</p>}>
            <p>button with its menu</p>
          </AfterFirstRender>
        </FirstRenderGate>,
      ),
    ).toBe('<p>button</p>');
  });

  it('draws its children outside the app (a test’s render)', () => {
    expect(
      renderToString(
        <AfterFirstRender first={<p>button</p>}>
          <p>button with its menu</p>
        </AfterFirstRender>,
      ),
    ).toBe('<p>button with its menu</p>');
  });
});
