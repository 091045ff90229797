// The table's WebSocket: says hello with the stored token, keeps the game's event log
// (the server sends each connection only the events it has not had yet), reconnects
// with back-off when the connection drops, and matches acks and errors to the frames
// that caused them.

const CLOSE_BAD_TOKEN = 4401;
const CLOSE_NO_TABLE = 4404;

export class TableSocket {
  /**
   * handlers: {onWelcome(frame), onState(state, events), onThinking(seats), onError(frame),
   *            onStatus("connecting"|"online"|"offline"), onBadToken(), onNoTable()}
   */
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;
    this.ws = null;
    this.nextId = 1;
    this.waiting = new Map();
    this.gameId = null;
    this.events = [];
    this.retry = 0;
    this.stopped = false;
    this.clockOffset = 0; // server_ms - Date.now(), from ping/pong
  }

  connect() {
    this.stopped = false;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(this.tableId)}`);
    this.ws = ws;
    this.status("connecting");
    ws.onopen = () => {
      ws.send(JSON.stringify({type: "hello", token: this.token || null}));
      this.pingSent = Date.now();
      ws.send(JSON.stringify({type: "ping", id: "clock"}));
    };
    ws.onmessage = (message) => {
      if (ws !== this.ws) return;
      let frame;
      try { frame = JSON.parse(message.data); } catch { return; }
      this.receive(frame);
    };
    ws.onclose = (event) => {
      if (ws !== this.ws) return;
      for (const {reject} of this.waiting.values()) reject(new Error("the connection closed"));
      this.waiting.clear();
      if (this.stopped) return;
      if (event.code === CLOSE_BAD_TOKEN) {
        this.stopped = true;
        this.status("offline");
        if (this.handlers.onBadToken) this.handlers.onBadToken();
        return;
      }
      if (event.code === CLOSE_NO_TABLE) {
        this.stopped = true;
        this.status("offline");
        if (this.handlers.onNoTable) this.handlers.onNoTable();
        return;
      }
      this.status("offline");
      const delay = Math.min(5000, 400 * 2 ** this.retry);
      this.retry += 1;
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }

  /** Close for good (e.g. before reconnecting with another token). */
  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close(1000);
    this.ws = null;
  }

  status(value) {
    this.state = value;
    if (this.handlers.onStatus) this.handlers.onStatus(value);
  }

  receive(frame) {
    switch (frame.type) {
      case "welcome":
        this.retry = 0;
        this.status("online");
        if (this.handlers.onWelcome) this.handlers.onWelcome(frame);
        break;
      case "state":
        this.absorb(frame);
        if (this.handlers.onState) this.handlers.onState(frame, this.events);
        break;
      case "thinking":
        if (this.handlers.onThinking) this.handlers.onThinking(frame.seats || []);
        break;
      case "pong":
        if (frame.ref === "clock" && this.pingSent) {
          const rtt = Date.now() - this.pingSent;
          this.clockOffset = frame.server_ms - (this.pingSent + rtt / 2);
        }
        break;
      case "ack": {
        const wait = this.waiting.get(frame.ref);
        if (wait) { this.waiting.delete(frame.ref); wait.resolve(frame); }
        break;
      }
      case "error": {
        const wait = this.waiting.get(frame.ref);
        if (wait) { this.waiting.delete(frame.ref); wait.reject(Object.assign(new Error(frame.message), {code: frame.code})); }
        if (this.handlers.onError) this.handlers.onError(frame);
        break;
      }
      default:
        break;
    }
  }

  absorb(frame) {
    const game = frame.game;
    if (!game) return;
    if (game.game_id !== this.gameId || game.events_from === 0) {
      this.gameId = game.game_id;
      this.events = game.events.slice();
    } else if (game.events_from === this.events.length) {
      this.events.push(...game.events);
    } else {
      // A gap in the log: start over with a fresh connection, which sends the whole log.
      this.events = [];
      this.gameId = null;
      if (this.ws) this.ws.close(4000);
    }
  }

  /** Send a frame; resolves on its ack, rejects with the server's error. */
  send(frame) {
    const id = `c${this.nextId++}`;
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(new Error("not connected to the table; reconnecting…"));
        return;
      }
      this.waiting.set(id, {resolve, reject});
      this.ws.send(JSON.stringify({...frame, id}));
    });
  }

  /** The server's clock now, in ms since the epoch. */
  serverNow() {
    return Date.now() + this.clockOffset;
  }
}
