/** The announcements' visible texts, written once for the banner, the list and the opt-in. */
export const ANNOUNCEMENT_TEXTS = {
  announcement: 'Announcement',
  announcements: 'Announcements',
  dismiss: 'Dismiss the announcement',
  none: 'No announcements today.',
  todays: 'Today’s announcements',
  pushTitle: 'Get announcements on this phone',
  pushBody: 'A notification when the organisers announce something, even with the app closed.',
  pushButton: 'Turn on',
  pushIphone:
    'On an iPhone, first add this app to your Home Screen (Share, then Add to Home Screen) and open it from there: iOS allows notifications only then.',
  pushDenied:
    'Notifications are blocked for this site. To get announcements, allow them in your browser’s settings for this site.',
  pushOn: 'Announcements arrive on this phone.',
  pushOff: 'Turn off',
  pushFailed: 'Announcements could not be turned on; try again.',
  pushOffFailed: 'Announcements could not be turned off; try again.',
  pushDismiss: 'Not now',
  pushDone: 'Done',
} as const;
