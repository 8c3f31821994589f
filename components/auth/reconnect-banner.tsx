// Placeholder: replaced by the connect feature (shows "Reconnect" when the ring connection needs it).
export function ReconnectBanner(_props: { userId: string }) {
  return null;
}
