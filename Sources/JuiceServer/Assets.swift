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
  const csrfMeta = $('meta[name="csrf-token"]');
  const csrf = csrfMeta ? csrfMeta.content : "";
  const say = (text) => { const s = $("#status"); if (s) s.textContent = text; };
  const uuid = () => (crypto.randomUUID ? crypto.randomUUID() :
    Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join(""));
  let till = localStorage.getItem("till");
  if (!till) { till = "till-" + uuid().slice(0, 4); localStorage.setItem("till", till); }

  async function call(method, url, body) {
    const response = await fetch(url, {
      method, credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    return { status: response.status, data };
  }
  const problem = (r) => (r.data && r.data.error ? r.data.error.message : "error " + r.status);

  const signIn = $("#sign-in");
  if (signIn) signIn.addEventListener("submit", async (event) => {
    event.preventDefault();
    const r = await call("POST", "/api/session", { user: $("#user").value, password: $("#password").value });
    if (r.status === 200) location.href = "/"; else $("#sign-in-error").textContent = problem(r);
  });
  const signOut = $("#sign-out");
  if (signOut) signOut.addEventListener("click", async () => { await call("DELETE", "/api/session"); location.href = "/signin"; });

  function render(shop) {
    for (const f of shop.fruits) { const c = $('[data-fruit="' + CSS.escape(f.id) + '"] .count'); if (c) c.textContent = f.count; }
    for (const s of shop.servings) { const c = $('[data-servings="' + CSS.escape(s.id) + '"] .count'); if (c) c.textContent = s.count; }
    for (const item of shop.menu) {
      const b = $('[data-item="' + CSS.escape(item.id) + '"]');
      if (!b) { if ($("#menu")) location.reload(); continue; }
      $(".state", b).textContent = item.status === "sold-out" ? "Sold out" : "Ready · " + item.capacity + " can be made";
      if (item.status === "sold-out") b.setAttribute("aria-disabled", "true"); else b.removeAttribute("aria-disabled");
    }
    for (const row of $$(".stock-row")) {
      const id = row.dataset.stock;
      const found = shop.fruits.concat(shop.servings).find((x) => x.id === id);
      if (found) $(".count", row).textContent = found.count;
    }
  }
  async function refresh() { const r = await call("GET", "/api/shop"); if (r.status === 200) render(r.data); }

  let lastRefusal = null;
  async function order(item, resolves) {
    const quantity = parseInt(($("#quantity") || { value: "1" }).value, 10) || 1;
    const body = { id: uuid(), item, quantity, till };
    if (resolves) body.resolves = resolves;
    const r = await call("POST", "/api/orders", body);
    if (r.status === 201) { say(quantity + " × " + item + " made."); $("#refusal").hidden = true; }
    else if (r.status === 409 && r.data.error.code === "not-enough-fruit") {
      lastRefusal = { item, refusal: parseInt(r.data.error.refusal, 10) };
      $("#refusal-text").textContent = "Not enough fruit for " + item + ": " + r.data.error.message.replace(/^not enough fruit: /, "") + ".";
      $("#refusal").hidden = false;
      const focus = $("#edit-stock") || $("#dismiss"); if (focus) focus.focus();
    } else say(problem(r));
    refresh();
  }
  for (const b of $$("button.item")) b.addEventListener("click", () => order(b.dataset.item));
  const dismiss = $("#dismiss"); if (dismiss) dismiss.addEventListener("click", () => { $("#refusal").hidden = true; });
  const makeNow = $("#make-now");
  if (makeNow) makeNow.addEventListener("click", () => { if (lastRefusal) order(lastRefusal.item, lastRefusal.refusal); });

  async function changeStock(row, body) {
    body.fruit = row.dataset.stock; body.id = uuid(); body.till = till;
    const r = await call("POST", "/api/stock", body);
    say(r.status < 300 ? row.dataset.stock + " is now " + r.data.after + "." : problem(r));
    refresh();
  }
  for (const row of $$(".stock-row")) {
    for (const b of $$(".step", row)) b.addEventListener("click", () => changeStock(row, { add: parseInt(b.dataset.add, 10) }));
    $(".set", row).addEventListener("click", () => changeStock(row, { set: parseInt($(".set-value", row).value, 10) }));
  }
  for (const b of $$("button.void, button.refund")) b.addEventListener("click", async () => {
    const kind = b.classList.contains("void") ? "void" : "refund";
    const r = await call("POST", "/api/orders/" + b.dataset.order + "/" + kind);
    say(r.status === 201 ? "Order #" + b.dataset.order + " " + (kind === "void" ? "voided" : "refunded") + "." : problem(r));
    if (r.status === 201) setTimeout(() => location.reload(), 300);
  });
  const close = $("#close-day");
  if (close) close.addEventListener("click", async () => {
    const r = await call("POST", "/api/day/close");
    if (r.status === 200) location.reload(); else say(problem(r));
  });
  const print = $("#print"); if (print) print.addEventListener("click", () => window.print());

  if (csrf && ($("#menu") || $("#stock-list") || $("#journal"))) {
    const events = new EventSource("/api/events");
    events.addEventListener("entry", () => { if ($("#journal")) location.reload(); else refresh(); });
  }
})();
"""#

    static let style = #"""
:root { color-scheme: light; --ink: #1b1b1b; --accent: #0b5d1e; --warn: #8a1c1c; --line: #767676; font-family: system-ui, sans-serif; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff; font-size: 1.05rem; line-height: 1.4; }
header { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; padding: 0.5rem 1rem; border-bottom: 1px solid var(--line); }
nav ul { display: flex; flex-wrap: wrap; gap: 0.5rem; list-style: none; margin: 0; padding: 0; }
nav a, a.button, button { display: inline-flex; align-items: center; justify-content: center; min-height: 44px; min-width: 44px; padding: 0.5rem 0.9rem; border-radius: 0.4rem; }
nav a { color: var(--accent); font-weight: 600; }
nav a[aria-current="page"] { background: var(--accent); color: #fff; }
button, a.button { border: 2px solid var(--accent); background: var(--accent); color: #fff; font: inherit; font-weight: 600; cursor: pointer; text-decoration: none; }
button:focus-visible, a:focus-visible, input:focus-visible { outline: 3px solid #1a4fd6; outline-offset: 2px; }
main { padding: 1rem; max-width: 72rem; margin: 0 auto; }
h1 { font-size: 1.6rem; margin: 0.5rem 0 1rem; } h2 { font-size: 1.2rem; }
.day { font-weight: 400; color: #444; font-size: 1.1rem; }
.fruits { display: flex; flex-wrap: wrap; gap: 0.5rem; list-style: none; padding: 0; }
.fruits li { border: 1px solid var(--line); border-radius: 0.4rem; padding: 0.5rem 0.75rem; }
.menu { display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: 0.75rem; list-style: none; padding: 0; }
button.item { width: 100%; min-height: 6rem; flex-direction: column; align-items: flex-start; background: #fff; color: var(--ink); border-color: var(--accent); text-align: left; }
button.item .label { font-size: 1.2rem; font-weight: 700; }
button.item[aria-disabled="true"] { border-color: var(--warn); background: #fbeaea; }
button.item[aria-disabled="true"] .state { color: var(--warn); font-weight: 700; }
.quantity input, input { min-height: 44px; font: inherit; padding: 0.3rem 0.5rem; border: 1px solid var(--line); border-radius: 0.3rem; }
.quantity input { width: 6rem; }
.card { border: 1px solid var(--line); border-radius: 0.5rem; padding: 1rem; max-width: 32rem; }
form.card { display: grid; gap: 0.5rem; }
#refusal { border-color: var(--warn); background: #fff6f6; max-width: none; }
#sign-in-error, [role="alert"] { color: var(--warn); font-weight: 600; }
.stock { list-style: none; padding: 0; display: grid; gap: 0.5rem; }
.stock-row { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; }
.stock-row .name { min-width: 10rem; font-weight: 600; } .stock-row .count { min-width: 3rem; text-align: center; }
.stock-row .set-value { width: 7rem; }
.table { overflow-x: auto; } table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #ccc; padding: 0.4rem; text-align: left; vertical-align: top; }
td button { min-height: 44px; }
.filters { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin-bottom: 1rem; }
.who { margin: 0.25rem 0; } .who button { margin-left: 0.5rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
#status { position: fixed; bottom: 0; left: 0; right: 0; padding: 0.5rem 1rem; background: #f3f3f3; min-height: 1px; }
@media print { header, #status, button, a.button { display: none; } }
"""#
}
