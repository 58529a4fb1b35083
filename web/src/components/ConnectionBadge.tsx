import { liveRecord } from "../i18n";
import type { ConnectionStatus } from "../socket";

const WORDS: Record<ConnectionStatus, string> = liveRecord(["connecting", "open", "reconnecting", "offline", "gone"], "conn.");

/** The connection's status; the socket reconnects by itself. */
export function ConnectionBadge({ status }: { status: ConnectionStatus }) {
  return (
    <span class={`conn conn-${status}`} role="status" aria-live="polite" data-testid="connection">
      <span class="conn-dot" aria-hidden="true" />
      {WORDS[status]}
    </span>
  );
}
