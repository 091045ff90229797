// Small DOM helpers shared by every page: element building, an in-place DOM patcher
// (so a re-render keeps focus, typed text and scroll position), gold formatting and
// the browser's stored tokens.

const SVG_NS = "http://www.w3.org/2000/svg";
const SVG_TAGS = new Set(["svg", "rect", "circle", "polygon", "text", "g", "path", "title"]);
// Properties (not attributes) that describe what the user sees in a form control.
const PROPS = new Set(["value", "checked", "selected", "disabled", "open"]);

/**
 * Build an element: h("button", {class: "btn", onclick: fn}, "Text", child, ...).
 * Attributes named on* become event handler properties; value/checked/selected/disabled
 * are set as properties; null/false attributes are left out; arrays of children flatten.
 */
export function h(tag, attrs, ...children) {
  const node = SVG_TAGS.has(tag) ? document.createElementNS(SVG_NS, tag) : document.createElement(tag);
  node._props = {};
  node._handlers = {};
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) {
      if (PROPS.has(key)) node._props[key] = false;
      continue;
    }
    if (key.startsWith("on") && typeof value === "function") {
      node._handlers[key] = value;
      node[key] = value;
    } else if (PROPS.has(key)) {
      node._props[key] = value;
      node[key] = value;
      if (key !== "value") node.setAttribute(key, "");
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
  appendAll(node, children);
  return node;
}

function appendAll(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) appendAll(node, child);
    else node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * Make `target`'s children look like `fresh`'s children, changing the live DOM as little
 * as possible: same-tag elements are updated in place, so a focused input keeps its focus
 * and the text being typed, and a scrolled log keeps its scroll position.
 */
export function patch(target, fresh) {
  patchChildren(target, [...fresh.childNodes]);
}

function patchChildren(live, wanted) {
  const current = [...live.childNodes];
  for (let i = 0; i < wanted.length; i++) {
    const want = wanted[i];
    const have = current[i];
    if (!have) {
      live.append(want);
    } else if (!sameKind(have, want)) {
      live.replaceChild(want, have);
    } else if (have.nodeType === Node.TEXT_NODE) {
      if (have.data !== want.data) have.data = want.data;
    } else {
      patchElement(have, want);
    }
  }
  for (let i = current.length - 1; i >= wanted.length; i--) current[i].remove();
}

function sameKind(a, b) {
  if (a.nodeType !== b.nodeType) return false;
  if (a.nodeType !== Node.ELEMENT_NODE) return true;
  if (a.tagName !== b.tagName) return false;
  // A keyed element (data-key) is only ever patched into the element with the same key.
  return a.getAttribute("data-key") === b.getAttribute("data-key")
    && a.getAttribute("type") === b.getAttribute("type");
}

function patchElement(live, want) {
  for (const attr of [...live.attributes]) {
    // A <details> element's "open" belongs to the user, who opened or closed it.
    if (attr.name === "open" && live.tagName === "DETAILS") continue;
    if (!want.hasAttribute(attr.name)) live.removeAttribute(attr.name);
  }
  for (const attr of [...want.attributes]) {
    if (live.getAttribute(attr.name) !== attr.value) live.setAttribute(attr.name, attr.value);
  }
  for (const key of Object.keys(live._handlers || {})) {
    if (!(key in want._handlers)) live[key] = null;
  }
  for (const [key, fn] of Object.entries(want._handlers || {})) live[key] = fn;
  live._handlers = want._handlers || {};
  patchChildren(live, [...want.childNodes]);
  const focusedText = live === document.activeElement
    && (live.tagName === "TEXTAREA" || (live.tagName === "INPUT" && !["checkbox", "radio"].includes(live.type)));
  for (const [key, value] of Object.entries(want._props || {})) {
    if (key === "value" && focusedText) continue;
    if (live[key] !== value) live[key] = value;
  }
  live._props = want._props || {};
}

/** Gold as "12 gp 3 sp 4 cp" (integer copper pieces; 1 gp = 10 sp = 100 cp). */
export function fmtCp(cp) {
  if (cp === null || cp === undefined) return "—";
  if (cp === 0) return "0 cp";
  const sign = cp < 0 ? "−" : "";
  let rest = Math.abs(cp);
  const parts = [];
  for (const [unit, size] of [["gp", 100], ["sp", 10], ["cp", 1]]) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count) parts.push(`${count} ${unit}`);
  }
  return sign + parts.join(" ");
}

/** A signed amount for settlements: "+1 gp 5 sp", "−2 gp", "±0". */
export function fmtDelta(cp) {
  if (cp > 0) return "+" + fmtCp(cp);
  if (cp < 0) return fmtCp(cp);
  return "±0";
}

/** The table id from /t/{id} or /host/{id}. */
export function tableIdFromPath() {
  const parts = location.pathname.split("/").filter(Boolean);
  return parts.length >= 2 ? decodeURIComponent(parts[1]) : null;
}

/** localStorage that never throws (private windows, full storage). */
export const store = {
  get(key) {
    try { return localStorage.getItem(key); } catch { return null; }
  },
  set(key, value) {
    try { localStorage.setItem(key, value); } catch { /* storage unavailable: keep going */ }
  },
  remove(key) {
    try { localStorage.removeItem(key); } catch { /* storage unavailable */ }
  },
};

export const seatTokenKey = (tableId) => `tavern:${tableId}:seat_token`;
export const hostTokenKey = (tableId) => `tavern:${tableId}:host_token`;

/** POST/GET JSON; rejects with the server's "detail" message on a 4xx/5xx. */
export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) {
    const detail = data && data.detail ? data.detail : `${response.status} ${response.statusText}`;
    const error = new Error(typeof detail === "string" ? detail : JSON.stringify(detail));
    // The field at fault ("rules.sides", "name"), so that a form can point at it.
    error.field = data && data.field ? data.field : null;
    error.status = response.status;
    throw error;
  }
  return data;
}

/** Show a short message at the bottom of the screen. */
export function toast(message, kind = "error") {
  let box = document.getElementById("toasts");
  if (!box) {
    box = h("div", {id: "toasts", "aria-live": "polite"});
    document.body.append(box);
  }
  // The same message again replaces the one shown, and at most three stay: a repeated
  // refusal must not pile up over the page.
  for (const shown of [...box.children]) if (shown.textContent === message) shown.remove();
  while (box.children.length >= 3) box.firstElementChild.remove();
  const item = h("div", {class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status"}, message);
  box.append(item);
  setTimeout(() => item.remove(), 6000);
}

export const plural = (n, one, many) => `${n} ${n === 1 ? one : (many || one + "s")}`;

/**
 * A player's name as page text: ellipsised when it does not fit (names run to 32
 * characters), the whole name in its tooltip.
 */
export function nameEl(name, cls = "") {
  return h("span", {class: `name ${cls}`.trim(), title: name}, name);
}

/**
 * Say `text` in the page's polite live region (it speaks only what is put there, once).
 * The region lives outside the re-rendered app, so a re-render never re-reads it.
 */
export function announce(text) {
  let region = document.getElementById("announcer");
  if (!region) {
    region = h("div", {id: "announcer", class: "visually-hidden", role: "status", "aria-live": "polite", "aria-atomic": "true"});
    document.body.append(region);
  }
  // Emptied first, so that the same words said twice are spoken twice.
  region.textContent = "";
  setTimeout(() => { region.textContent = text; }, 50);
}

/** "Ann", "Ann and Bob", "Ann, Bob and Cid". */
export function joinNames(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}
