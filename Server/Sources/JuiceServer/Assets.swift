/// The pages' script and style, served as files (the Content-Security-Policy
/// allows no inline script). Plain JavaScript, no build step, no CDN: it
/// works offline. The script sends the session's CSRF token with every
/// change, and re-reads the shop on each server-sent event.
enum Assets {
    static let script = #"""
"use strict";
(function () {
  const $ = (s, r) => (r || document).querySelector(s);
  const $$ = (s, r) => Array.from((r || document).querySelectorAll(s));
  const csrf = ($('meta[name="csrf-token"]') || {}).content || "";
  const say = (text) => { const s = $("#status"); if (s) s.textContent = text; };
  const uuid = () => (crypto.randomUUID ? crypto.randomUUID() :
    Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join(""));
  const on = (s, f) => { const e = $(s); if (e) e.addEventListener("click", f); return e; };
  const sel = (attr, id) => "[data-" + attr + '="' + CSS.escape(id) + '"]';
  let till = localStorage.getItem("till");
  if (!till) { till = "till-" + uuid().slice(0, 4); localStorage.setItem("till", till); }
  const tillName = $("#till-name"); if (tillName) tillName.textContent = " · " + till;

  async function call(method, url, body) {
    try {
      const r = await fetch(url, { method, credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
        body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: r.status, data: await r.json().catch(() => null) };
    } catch (e) { return { status: 0, data: null }; }
  }
  const problem = (r) => (r.data && r.data.error ? r.data.error.message : r.status ? "error " + r.status : "the server cannot be reached");

  const signIn = $("#sign-in");
  if (signIn) signIn.addEventListener("submit", async (event) => {
    event.preventDefault();
    const r = await call("POST", "/api/session", { user: $("#user").value, password: $("#password").value });
    if (r.status === 200) location.href = "/"; else $("#sign-in-error").textContent = problem(r);
  });
  on("#sign-out", async () => { await call("DELETE", "/api/session"); location.href = "/signin"; });

  const itemState = (i) => (i.status === "sold-out" ? "Sold out" : "Ready · " + i.capacity + " can be made");
  function render(shop) {
    const day = $("h1 .day"), closed = $("#day-closed");
    if (day && $("#menu")) day.textContent = shop.day || "";
    if (closed && closed.hidden === shop.dayOpen) { closed.hidden = shop.dayOpen; if (!shop.dayOpen) say(closed.textContent); }
    const all = shop.fruits.concat(shop.servings);
    for (const f of all) for (const c of $$(sel("fruit", f.id) + " .count, " + sel("servings", f.id) + " .count")) c.textContent = f.count;
    for (const item of shop.menu) {
      const b = $(sel("item", item.id) + ".item");
      if (!b) { if ($("#menu")) location.reload(); continue; }
      $(".state", b).textContent = itemState(item);
      b.dataset.status = item.status;
    }
    for (const row of $$(".stock-row")) {
      const found = all.find((x) => x.id === row.dataset.stock);
      if (!found) continue;
      $(".count", row).textContent = found.count;
      $(".step", row).disabled = found.count === 0;
      const field = $(".set-value", row);
      if (document.activeElement !== field) field.value = found.count;
    }
  }
  // One read of the shop at a time; changes during it ask for one more.
  let busy = null, again = false;
  function refresh() {
    if (busy) { again = true; return busy; }
    busy = (async () => {
      do { again = false; const r = await call("GET", "/api/shop"); if (r.status === 200) render(r.data); } while (again);
      busy = null;
    })();
    return busy;
  }

  const quantity = $("#quantity");
  const wanted = () => Math.min(1000, Math.max(1, parseInt(quantity ? quantity.value : "1", 10) || 1));
  for (const b of $$(".step[data-quantity]")) b.addEventListener("click", () => { quantity.value = Math.max(1, wanted() + +b.dataset.quantity); });

  const dialog = $("#refusal");
  const label = (item) => { const b = $(sel("item", item) + " .label"); return b ? b.textContent : item; };
  let last = null;
  async function order(item, count, resolves) {
    const r = await call("POST", "/api/orders", { id: uuid(), item, quantity: count, till, resolves });
    if (r.status === 201) {
      say(count + " × " + label(item) + " made.");
      if (quantity) quantity.value = 1;
      if (dialog && dialog.open) dialog.close();
    } else if (r.status === 409 && r.data.error.code === "not-enough-fruit" && dialog) {
      const short = (r.data.error.short || "").split(",").filter(Boolean);
      last = { item, count, refusal: +r.data.error.refusal };
      const names = short.map((id) => { const f = $(sel("fruit", id)); return f ? $(".name", f).textContent + " (" + $(".count", f).textContent + " on hand)" : id; });
      $("#refusal-text").textContent = label(item) + " × " + count + " was refused: not enough " + names.join(", ") + ".";
      const edit = $("#edit-stock");
      if (edit) edit.href = "/stock?" + new URLSearchParams({ refusal: last.refusal, item, quantity: count, short });
      if (!dialog.open) dialog.showModal();
      (edit || $("#dismiss")).focus();
    } else say(problem(r));
    await refresh();
    return r;
  }
  for (const b of $$("button.item")) b.addEventListener("click", () => order(b.dataset.item, wanted()));
  on("#dismiss", () => dialog.close());
  on("#make-now", () => { if (last) order(last.item, last.count, last.refusal); });
  const retry = on("#retry-order", async () => {
    const d = retry.dataset, r = await order(d.item, +d.quantity, +d.refusal);
    if (r.status === 201) { retry.disabled = true; say("Made: " + $("#retry-heading").textContent.replace("Refused: ", "") + "."); }
    else if (r.status === 409) say("Still " + problem(r) + ".");
  });

  async function changeStock(row, body) {
    Object.assign(body, { fruit: row.dataset.stock, id: uuid(), till });
    const name = row.dataset.label;
    if (body.set !== undefined && !(body.set >= 0)) return say(name + ": stock cannot go below 0.");
    const r = await call("POST", "/api/stock", body);
    say(r.status < 300 ? name + " is now " + r.data.after + "." : name + ": " + problem(r));
    await refresh();
  }
  for (const row of $$(".stock-row")) {
    for (const b of $$(".step", row)) b.addEventListener("click", () => changeStock(row, { add: +b.dataset.add }));
    const field = $(".set-value", row);
    const set = () => changeStock(row, { set: field.value.trim() === "" ? NaN : +field.value });
    $(".set", row).addEventListener("click", set);
    field.addEventListener("keydown", (e) => { if (e.key === "Enter") set(); });
  }

  for (const b of $$("button.void, button.refund")) b.addEventListener("click", async () => {
    const kind = b.classList.contains("void") ? "void" : "refund", cell = b.closest("td");
    const r = await call("POST", "/api/orders/" + b.dataset.order + "/" + kind);
    if (r.status !== 201) return say(problem(r));
    cell.textContent = kind === "void" ? "voided" : "refunded";
    say("Order #" + b.dataset.order + " " + cell.textContent + ".");
  });

  const confirmClose = $("#confirm-close");
  on("#close-day", () => { confirmClose.hidden = false; $("#close-day-yes").focus(); });
  on("#close-day-no", () => { confirmClose.hidden = true; $("#close-day").focus(); });
  on("#close-day-yes", async () => {
    // The day is named, so a retried close cannot close the next day too.
    const r = await call("POST", "/api/day/close", { day: $("#close-day-yes").dataset.day });
    if (r.status === 200) location.href = "/report?day=" + encodeURIComponent(r.data.day); else say(problem(r));
  });
  on("#print", () => window.print());
  on("#show-new", () => location.reload());

  if (csrf && ($("#menu") || $("#stock-list") || $("#journal"))) {
    const events = new EventSource("/api/events"), root = document.documentElement;
    let opened = false;
    events.addEventListener("open", () => { root.dataset.live = "on"; if (opened) { say(""); refresh(); } opened = true; });
    events.addEventListener("error", () => { root.dataset.live = "off"; say("Reconnecting to the shop…"); });
    events.addEventListener("entry", () => { if ($("#journal")) $("#new-entries").hidden = false; else refresh(); });
  }
})();
"""#

    static let style = #"""
:root { color-scheme: light; --ink: #1b1b1b; --muted: #4a4a4a; --accent: #0b5d1e; --accent-soft: #e8f3eb; --warn: #8a1c1c; --warn-soft: #fbeaea; --line: #767676; --focus: #1a4fd6; font-family: system-ui, "Noto Sans", "Noto Sans CJK KR", sans-serif; }
* { box-sizing: border-box; }
html { scroll-padding-bottom: 4rem; }
body { margin: 0; color: var(--ink); background: #fff; font-size: 1.05rem; line-height: 1.4; padding-bottom: 3rem; }
header { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: 0.25rem 1rem; padding: 0.4rem 1rem; border-bottom: 1px solid var(--line); }
nav ul { display: flex; flex-wrap: wrap; gap: 0.25rem; list-style: none; margin: 0; padding: 0; }
nav a, a.button, button { display: inline-flex; align-items: center; justify-content: center; min-height: 44px; min-width: 44px; padding: 0.4rem 0.9rem; border-radius: 0.4rem; }
nav a { color: var(--accent); font-weight: 600; }
nav a[aria-current="page"] { background: var(--accent); color: #fff; }
button, a.button { border: 2px solid var(--accent); background: var(--accent); color: #fff; font: inherit; font-weight: 600; cursor: pointer; text-decoration: none; touch-action: manipulation; }
button.quiet, a.button.quiet { background: #fff; color: var(--accent); }
button.warn { background: var(--warn); border-color: var(--warn); }
button:disabled { background: #f0f0f0; border-color: #b0b0b0; color: #6b6b6b; cursor: not-allowed; }
button:focus-visible, a:focus-visible, input:focus-visible, select:focus-visible, .table:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
main { padding: 0.5rem 1rem 1rem; max-width: 72rem; margin: 0 auto; }
h1 { font-size: 1.5rem; margin: 0.4rem 0 0.6rem; } h2 { font-size: 1.15rem; margin: 0.8rem 0 0.4rem; }
.day { font-weight: 400; color: var(--muted); font-size: 1.05rem; }
.fruits { display: flex; flex-wrap: wrap; gap: 0.5rem; list-style: none; padding: 0; margin: 0; }
.fruits li { display: flex; align-items: center; gap: 0.5rem; border: 1px solid var(--line); border-radius: 0.4rem; padding: 0.4rem 0.75rem; min-height: 44px; }
.fruits .count { font-size: 1.25rem; min-width: 2ch; text-align: right; }
.menu { display: grid; grid-template-columns: repeat(auto-fill, minmax(13rem, 1fr)); gap: 0.6rem; list-style: none; padding: 0; margin: 0; }
button.item { width: 100%; min-height: 5.5rem; flex-direction: column; align-items: flex-start; gap: 0.1rem; background: #fff; color: var(--ink); text-align: left; }
button.item .label { font-size: 1.25rem; font-weight: 700; }
button.item .price { color: var(--muted); font-weight: 400; }
button.item .state { color: var(--accent); font-weight: 400; }
button.item[data-status="sold-out"] { border-color: var(--warn); background: var(--warn-soft); }
button.item[data-status="sold-out"] .state { color: var(--warn); font-weight: 700; }
button.item:active { background: var(--accent-soft); }
input, select { min-height: 44px; min-width: 44px; font: inherit; padding: 0.3rem 0.5rem; border: 1px solid var(--line); border-radius: 0.3rem; background: #fff; color: var(--ink); }
.quantity { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem; margin: 0 0 0.6rem; }
.quantity input { width: 5.5rem; text-align: center; }
.card { border: 1px solid var(--line); border-radius: 0.5rem; padding: 1rem; max-width: 32rem; }
.notice { border: 2px solid var(--warn); background: var(--warn-soft); max-width: none; margin: 0.5rem 0; }
.notice h2 { margin-top: 0; }
form.card { display: grid; gap: 0.5rem; }
.alert, #sign-in-error { color: var(--warn); font-weight: 600; }
dialog { border: 3px solid var(--warn); border-radius: 0.6rem; padding: 1rem 1.25rem; max-width: min(36rem, calc(100vw - 2rem)); color: var(--ink); background: #fff; }
dialog::backdrop { background: rgba(0, 0, 0, 0.45); }
dialog h2 { margin-top: 0; color: var(--warn); }
p.actions { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
.stock { list-style: none; padding: 0; margin: 0; display: grid; gap: 0.5rem; }
.stock-row { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1rem; padding: 0.4rem 0; border-bottom: 1px solid #d0d0d0; }
.stock-row.short { background: var(--warn-soft); }
.stock-row .name { flex: 1 1 9rem; font-weight: 600; }
.stepper, .setter { display: inline-flex; align-items: center; gap: 0.4rem; }
.stock-row .count { min-width: 3.5ch; text-align: center; font-size: 1.25rem; }
.stock-row .set-value { width: 6.5rem; }
.table { overflow-x: auto; } table { border-collapse: collapse; width: 100%; }
caption { text-align: left; font-weight: 600; padding: 0.3rem 0; }
th, td { border-bottom: 1px solid #c4c4c4; padding: 0.35rem 0.4rem; text-align: left; vertical-align: top; }
td.actions, #journal td:nth-child(2), #journal td:nth-child(4) { white-space: nowrap; }
#journal td:nth-child(6) { min-width: 15rem; }
.corrected { color: var(--warn); font-weight: 600; }
.filters { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; margin-bottom: 0.75rem; }
.field { display: inline-flex; align-items: center; gap: 0.4rem; }
.who { margin: 0; display: flex; align-items: center; gap: 0.5rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
#status { position: fixed; bottom: 0; left: 0; right: 0; padding: 0.6rem 1rem; background: #1b1b1b; color: #fff; }
#status:empty { padding: 0; }
@media (max-width: 30rem) { main { padding: 0.5rem 0.6rem 1rem; } header { padding: 0.3rem 0.6rem; } nav a { padding: 0.4rem 0.55rem; } .menu { grid-template-columns: 1fr 1fr; } button.item { min-height: 5rem; padding: 0.4rem 0.6rem; } button.item .label { font-size: 1.1rem; } }
@media (max-width: 40rem) {
  #journal thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  #journal tr { display: flex; flex-wrap: wrap; gap: 0 0.6rem; padding: 0.4rem 0; border-bottom: 1px solid #c4c4c4; }
  #journal td { display: block; border: 0; padding: 0.1rem 0; }
  #journal td:first-child::before { content: "#"; }
  #journal td:nth-child(5) { font-weight: 600; }
  #journal td:nth-child(6), #journal td.actions { flex-basis: 100%; min-width: 0; }
  #journal td.actions:empty { display: none; }
}
@media print { header, #status, button, a.button, .filters, dialog { display: none !important; } body { padding: 0; } .table { overflow: visible; } }
"""#
}
