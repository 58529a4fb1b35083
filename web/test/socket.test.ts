import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { backoff, GameSocket, type SocketLike } from "../src/socket";
import { classicView } from "./fixtures";

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  onopen: ((ev: Event) => unknown) | null = null;
  onclose: ((ev: CloseEvent) => unknown) | null = null;
  onmessage: ((ev: MessageEvent) => unknown) | null = null;
  onerror: ((ev: Event) => unknown) | null = null;
  send(data: string) {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close(code = 1000) {
    this.readyState = 3;
    this.onclose?.({ code } as CloseEvent);
  }
  open() {
    this.readyState = 1;
    this.onopen?.({} as Event);
  }
  push(msg: unknown) {
    this.onmessage?.({ data: JSON.stringify(msg) } as MessageEvent);
  }
}

describe("GameSocket", () => {
  let sockets: FakeSocket[];
  beforeEach(() => {
    vi.useFakeTimers();
    sockets = [];
  });
  afterEach(() => vi.useRealTimers());

  function make(tokens: string[] = ["tok"]) {
    const views: number[] = [];
    const statuses: string[] = [];
    const s = new GameSocket(
      "G",
      tokens,
      { onView: (v) => views.push(v.version), onStatus: (st) => statuses.push(st) },
      () => {
        const f = new FakeSocket();
        sockets.push(f);
        return f;
      },
      "ws://test",
    );
    return { s, views, statuses };
  }

  it("authenticates, ignores the spectator view before the answer, keeps the newest view", () => {
    const { s, views } = make();
    s.start();
    const ws = sockets[0]!;
    ws.open();
    expect(ws.sent[0]).toEqual({ type: "auth", tokens: ["tok"], id: "auth" });
    ws.push({ type: "welcome", game: "G", you: [] });
    ws.push({ type: "state", game: "G", version: 1, view: classicView({ version: 1, you: [] }) });
    expect(views).toEqual([]);
    ws.push({ type: "welcome", game: "G", you: [1], id: "auth" });
    ws.push({ type: "state", game: "G", version: 3, view: classicView({ version: 3 }) });
    ws.push({ type: "state", game: "G", version: 2, view: classicView({ version: 2 }) });
    expect(views).toEqual([3]);
    s.stop();
  });

  it("resolves a move with the reply carrying its id, and the engine's reason on refusal", async () => {
    const { s } = make([]);
    s.start();
    const ws = sockets[0]!;
    ws.open();
    ws.push({ type: "state", game: "G", version: 4, view: classicView({ version: 4 }) });
    const reply = s.move(1, "9T1");
    const sent = ws.sent.at(-1)!;
    expect(sent).toMatchObject({ type: "move", seat: 1, version: 4, move: "9T1" });
    ws.push({ type: "error", code: "illegal_move", message: "no such architect (R1)", id: sent.id });
    await expect(reply).resolves.toMatchObject({ code: "illegal_move", message: "no such architect (R1)" });
    s.stop();
  });

  it("reconnects with backoff after a drop and authenticates again", () => {
    const { s, statuses } = make();
    s.start();
    sockets[0]!.open();
    sockets[0]!.close(1006);
    expect(statuses.at(-1)).toBe("reconnecting");
    vi.advanceTimersByTime(10_000);
    expect(sockets.length).toBe(2);
    sockets[1]!.open();
    expect(sockets[1]!.sent[0]).toMatchObject({ type: "auth" });
    expect(statuses.at(-1)).toBe("open");
    s.stop();
  });

  it("stops on a game that does not exist", () => {
    const { s, statuses } = make();
    s.start();
    sockets[0]!.open();
    sockets[0]!.close(4404);
    vi.advanceTimersByTime(30_000);
    expect(statuses.at(-1)).toBe("gone");
    expect(sockets.length).toBe(1);
    s.stop();
  });

  it("backs off exponentially up to 8 s", () => {
    expect(backoff(0, () => 0.5)).toBe(250);
    expect(backoff(3, () => 0.5)).toBe(2000);
    expect(backoff(20, () => 0.5)).toBe(8000);
  });
});

describe("GameSocket of a logged-in browser", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("presents the account's session when logged in, with or without seat tokens", () => {
    const sockets: FakeSocket[] = [];
    const s = new GameSocket("G", [], { onView: () => undefined, onStatus: () => undefined }, () => {
      const f = new FakeSocket();
      sockets.push(f);
      return f;
    }, "ws://test");
    s.start();
    const ws = sockets[0]!;
    ws.open();
    expect(ws.sent).toEqual([]); // a guest without tokens watches
    s.setTokens([], true);
    expect(ws.sent[0]).toEqual({ type: "auth", tokens: [], account: true, id: "auth" });
    ws.close(1006);
    vi.runOnlyPendingTimers();
    sockets[1]!.open(); // a reconnection presents the account again
    expect(sockets[1]!.sent[0]).toEqual({ type: "auth", tokens: [], account: true, id: "auth" });
  });
});
