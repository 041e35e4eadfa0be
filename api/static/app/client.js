// The table app's side of the HTTP contract: reads with the seat's bearer token, and writes through a
// queue kept in localStorage. The Idempotency-Key is made when the player taps, and a write is dropped
// from the queue only once the service has answered it, so a command sent while the network is down is
// resent as it was and applied once, however many times it had to be sent. Every request also carries the
// newest head this device saw of the game (`Known-Head: <seq>:<hash>`, kept in localStorage), so that a log
// restored from an older backup, or rewritten, is refused by the service as damaged (SVC.DAMAGED).

function newKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);  // crypto.randomUUID needs a secure context; a phone on the LAN is not one
  return "tap-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class Problem extends Error {
  constructor(status, body) {
    super(body?.detail || body?.title || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

export class Client {
  constructor(gameId, token, {onAnswer, onQueue}) {
    this.gameId = gameId;
    this.token = token;
    this.base = `/games/${encodeURIComponent(gameId)}`;
    this.store = `warlog:queue:${gameId}:${token.slice(0, 12)}`;
    this.headStore = `warlog:head:${gameId}`;
    this.onAnswer = onAnswer;  // (item, status, body) for every answer a queued write gets
    this.onQueue = onQueue;    // (waiting writes, offline?) whenever the queue changes
    this.sending = false;
    this.offline = false;
    addEventListener("online", () => this.flush());
    setInterval(() => { if (this.queue().length) this.flush(); }, 1500);
  }

  headers(extra = {}) {
    const head = localStorage.getItem(this.headStore);
    return {Authorization: `Bearer ${this.token}`, ...(head ? {"Known-Head": head} : {}), ...extra};
  }

  // An event this device was shown: the newest one's seq and hash are the head it vouches for from now on
  saw(event) {
    if (!event || typeof event.hash !== "string") return;
    const kept = Number((localStorage.getItem(this.headStore) || "0:").split(":")[0]);
    if (event.seq > kept) localStorage.setItem(this.headStore, `${event.seq}:${event.hash}`);
  }

  async get(path) {
    const response = await fetch(this.base + path, {headers: this.headers(), cache: "no-store"});
    const body = await response.json().catch(() => null);
    if (!response.ok) throw new Problem(response.status, body);
    return body;
  }

  async blob(path) {  // a file this seat may read (a chart, the export), with its token in a header, not the URL
    const response = await fetch(this.base + path, {headers: this.headers(), cache: "no-store"});
    if (!response.ok) throw new Problem(response.status, await response.json().catch(() => null));
    return response.blob();
  }

  queue() {
    try { return JSON.parse(localStorage.getItem(this.store) || "[]"); } catch { return []; }
  }

  save(items) {
    localStorage.setItem(this.store, JSON.stringify(items));
    this.onQueue(items, this.offline);
  }

  // A tap: `path` is "/commands", "/undo", "/redo", "/undo/approve" or "/undo/reject"
  // Returns the tap's Idempotency-Key, which its answer's item carries (so a page can tell where it was sent from)
  send(path, body = null, label = "") {
    const item = {key: newKey(), path, body, label, tapped: Date.now()};
    this.save([...this.queue(), item]);
    this.flush();
    return item.key;
  }

  async flush() {
    if (this.sending) return;
    this.sending = true;
    try {
      for (let items = this.queue(); items.length; items = this.queue()) {
        const item = items[0];
        let response;
        try {
          response = await fetch(this.base + item.path, {
            method: "POST", cache: "no-store",
            headers: this.headers({"Idempotency-Key": item.key, ...(item.body ? {"Content-Type": "application/json"} : {})}),
            body: item.body ? JSON.stringify(item.body) : undefined});
        } catch {
          this.offline = true;  // no answer at all: keep it, and its key, for the next try
          this.onQueue(items, true);
          return;
        }
        const body = await response.json().catch(() => null);
        const conflict = response.status === 409 && String(body?.type || "").endsWith("/conflict");
        if (response.status >= 500 || response.status === 429 || conflict) {  // not judged: the same key again later
          this.offline = false;
          this.onQueue(items, false);
          return;
        }
        this.offline = false;
        (body?.events || []).forEach((event) => this.saw(event));
        this.save(this.queue().filter((other) => other.key !== item.key));
        this.onAnswer(item, response.status, body);
      }
    } finally {
      this.sending = false;
    }
  }
}
