import { Button, Group } from '@mantine/core';

/** "Load more" under a console list that pages: the next page of an infinite query. */
export function LoadMoreButton({
  list,
}: {
  list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
}) {
  if (!list.hasNextPage) return null;
  return (
    <Group justify="center">
      <Button
        variant="default"
        loading={list.isFetchingNextPage}
        onClick={() => void list.fetchNextPage()}
      >
        Load more
      </Button>
    </Group>
  );
}
