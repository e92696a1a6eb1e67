import { Button, type ButtonProps, Center } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { LIMITS } from '../../../shared/constants.ts';
import { type QuestionsScope, loadOlderQuestions, questionsKey } from './api/get-questions.ts';

export interface OlderQuestionsButtonProps extends ButtonProps {
  scope: QuestionsScope;
  /** How many questions of the scope the list holds: a full page or more may have older ones. */
  held: number;
  children: ReactNode;
}

/**
 * Loads the page of questions before the oldest one held, for as long as there may be more;
 * it goes once a page comes back short. A failed load leaves it there for another try.
 */
export function OlderQuestionsButton({
  scope,
  held,
  children,
  ...buttonProps
}: OlderQuestionsButtonProps) {
  const client = useQueryClient();
  const key = questionsKey(scope).join('/');
  // Kept with the scope it is about, so another scope starts afresh.
  const [older, setOlder] = useState<{ key: string; state: 'loading' | 'done' } | null>(null);
  const state = older?.key === key ? older.state : 'idle';
  if (held < LIMITS.pageSizeMax || state === 'done') return null;

  const showOlder = async () => {
    setOlder({ key, state: 'loading' });
    let more = true;
    try {
      more = await loadOlderQuestions(client, scope);
    } catch {
      // Nothing loaded: the button stays.
    } finally {
      setOlder(more ? null : { key, state: 'done' });
    }
  };

  return (
    <Center>
      <Button loading={state === 'loading'} onClick={() => void showOlder()} {...buttonProps}>
        {children}
      </Button>
    </Center>
  );
}
