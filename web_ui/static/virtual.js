// The virtual table: the board in a page. A location of the map is one target: tap it to see its
// blocks (or, holding a block, to set it down there). A block in a tray is a button: tap it to lift
// it (it goes to the hand), tap a location or a tray to set it down. Each change goes to the
// server, which turns it into the sensor events the real readers would send; the page redraws from
// the table's live stream. Labels and strengths come from the server for this browser's side only.
// Keyboard: every location and block is focusable, Enter or Space lifts and sets down; the place
// picker names every place in words.
import {follow} from "./js/stream.js";
(function () {
  const root = document.querySelector(".vt");
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const svg = document.querySelector("svg.map");
  const mapBox = document.getElementById("map-box");
  const $ = (id) => document.getElementById(id);
  const NS = "http://www.w3.org/2000/svg";
  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };
  const svgEl = (tag, attrs, cls) => {
    const e = document.createElementNS(NS, tag);
    Object.keys(attrs).forEach((k) => e.setAttribute(k, attrs[k]));
    if (cls) e.setAttribute("class", cls);
    return e;
  };
  // Texts through t(): the page embeds its language's catalog (web_ui/i18n/views.py).
  const CATALOG = JSON.parse(($("i18n") || {}).textContent || "{}");
  const fill = (text, params) => text.replace(/%\((\w+)\)s/g, (m, k) => (params && k in params ? String(params[k]) : m));
  const t = (key, params) => fill(Object.prototype.hasOwnProperty.call(CATALOG, key) ? CATALOG[key] : key, params);
  const sideName = (s) => CATALOG["side:" + s] || s;
  const mySide = root.dataset.side || null;
  const byName = (a, b) => a.localeCompare(b, document.documentElement.lang || undefined, {numeric: true});

  let state = null;
  let epoch = null;
  let version = -1;
  let selected = null;    // the token of the block in hand that goes down next
  let here = null;        // the location whose blocks the "here" tray lists
  let shownMessage = "";
  let centred = false;

  // --- the map's locations as targets ---------------------------------------------------------
  const locs = {};
  svg.querySelectorAll("g.loc").forEach((g) => {
    const c = g.querySelector("circle");
    let x, y;
    if (c) { x = +c.getAttribute("cx"); y = +c.getAttribute("cy"); } else {
      const box = g.getBBox(); x = box.x + box.width / 2; y = box.y + box.height / 2;
    }
    locs[g.dataset.name] = {g: g, x: x, y: y};
  });
  const names = Object.keys(locs);
  // The targets are as large as the two nearest locations allow without overlapping; the map is
  // drawn at the scale that makes them at least 52 px across (it scrolls inside its box).
  let nearest = Infinity;
  names.forEach((a, i) => names.slice(i + 1).forEach((b) => {
    nearest = Math.min(nearest, Math.hypot(locs[a].x - locs[b].x, locs[a].y - locs[b].y));
  }));
  const R = Math.min(Number.isFinite(nearest) ? nearest / 2 - 1 : 40, 60);
  const MIN_TARGET_PX = 52;
  // A role="img" hides its children from assistive technology: here the map is a group of buttons.
  svg.setAttribute("role", "group");
  names.forEach((name) => {
    const loc = locs[name];
    loc.cy = loc.y + R / 2;       // the blocks sit on the city, below its name
    loc.g.prepend(svgEl("circle", {cx: loc.x, cy: loc.cy, r: R}, "hit"));
    loc.g.setAttribute("tabindex", "0");
    loc.g.setAttribute("role", "button");
  });
  const layer = svgEl("g", {"aria-hidden": "true"}, "vblocks");
  svg.append(layer);

  function fitMap() {
    const vb = svg.viewBox.baseVal;
    if (!vb || !vb.width) return;
    const scale = Math.max(MIN_TARGET_PX / (2 * R), mapBox.clientWidth / vb.width);
    svg.style.width = vb.width * scale + "px";
    svg.style.height = vb.height * scale + "px";
  }

  function centreOn(place) {
    const loc = locs[place];
    if (!loc) return;
    const ctm = svg.getScreenCTM();
    const box = mapBox.getBoundingClientRect();
    if (!ctm) return;
    const px = ctm.a * loc.x + ctm.e - box.left + mapBox.scrollLeft;
    const py = ctm.d * loc.cy + ctm.f - box.top + mapBox.scrollTop;
    mapBox.scrollTo(px - mapBox.clientWidth / 2, py - mapBox.clientHeight / 2);
  }

  // --- words ----------------------------------------------------------------------------------
  function placeWords(key) {
    if (key === "hand") return t("the hand");
    if (key === "scan_pad") return t("the scan pad");
    const [kind, side] = key.split(":");
    if (kind === "pool") return t("the levy pool of %(side)s", {side: sideName(side)});
    if (kind === "eliminated") return t("the eliminated blocks of %(side)s", {side: sideName(side)});
    return key;
  }
  const colour = (b) => (b.label === "Cleopatra" ? "cleopatra" : b.side.toLowerCase());
  // A block of his set down during his decision: played when he presses Done (the server says which).
  const provisional = (b) => !!b.planned;
  // A block of his standing where the game does not have it (a move made on the phone, an undo):
  // to be carried from where it stands to where the game has it.
  const misplaced = (b) => !!b.game && b.game !== b.at && !b.planned && b.at !== "hand";
  function blockWords(b) {
    if (!b.label) return t("an unnamed block of %(side)s", {side: sideName(b.side)});
    const name = b.strength ? t("%(block)s, strength %(strength)s", {block: b.label, strength: b.strength}) : b.label;
    return t("%(side)s %(block)s", {side: sideName(b.side), block: name});
  }
  function blockSentence(b) {
    const where = b.at === "hand" ? t("%(block)s, in hand", {block: blockWords(b)})
      : t("%(block)s in %(at)s", {block: blockWords(b), at: placeWords(b.at)});
    return provisional(b) ? t("%(text)s; moved from %(from)s, played when Done is pressed",
      {text: where, from: placeWords(b.game)}) : where;
  }
  const SHORT = [[/^Legio (\d+)$/, "L$1"], [/^Auxilia (\d+)$/, "A$1"], [/^Equitatus (\d+)$/, "Eq$1"],
    [/^Navis (\d+)$/, "N$1"]];
  function shortLabel(label) {
    for (const [re, to] of SHORT) if (re.test(label)) return label.replace(re, to);
    return label.slice(0, 3);
  }

  // --- drawing --------------------------------------------------------------------------------
  // His own blocks by name; the blocks he cannot read in the order they were set down (the
  // server's order): the row the table counts the Pi's blocks in ("no. 2 from the left").
  function sortBlocks(list) {
    const order = new Map(state.blocks.map((b, i) => [b.token, i]));
    return list.slice().sort((a, b) => (a.side !== b.side ? (a.side === mySide ? -1 : b.side === mySide ? 1 : byName(a.side, b.side))
      : (a.label && b.label ? byName(a.label, b.label) : order.get(a.token) - order.get(b.token))));
  }

  // `n`: the block's place in the row of its side's unnamed blocks there, shown on it.
  function trayBlock(b, n) {
    const cls = "vblock " + colour(b) + (b.token === selected ? " selected" : "") + (provisional(b) ? " provisional" : "");
    if (b.movable) {
      const btn = el("button", undefined, cls);
      btn.type = "button";
      btn.dataset.token = b.token;
      btn.append(el("span", b.label || "?", "name printed"));     // as printed on the block
      if (b.strength) btn.append(el("span", String(b.strength), "strength printed"));
      if (n) btn.append(el("span", t("no. %(n)s", {n: n}), "position"));
      const said = n ? t("%(block)s, no. %(n)s from the left", {block: blockSentence(b), n: n}) : blockSentence(b);
      btn.setAttribute("aria-label", said);
      if (b.token === selected || b.at === "hand") btn.setAttribute("aria-pressed", b.token === selected ? "true" : "false");
      btn.title = said;
      return btn;
    }
    return null;    // a block this browser may not handle: counted, not drawn (the server refuses it)
  }

  // `owner`: the side whose tray it is (a pool, an eliminated area), whose blocks its heading counts.
  function fillTray(tray, blocks, title, owner) {
    const list = tray.querySelector(".blocks");
    list.replaceChildren();
    const sorted = sortBlocks(blocks);
    const counted = {};
    const numbered = tray.dataset.place !== "hand";
    sorted.map((b) => {
      const n = numbered && !b.label ? (counted[b.side] = (counted[b.side] || 0) + 1) : 0;
      return trayBlock(b, n);
    }).filter((x) => x).forEach((x) => list.append(x));
    const others = sorted.filter((b) => !b.movable && b.side !== owner);
    if (others.length) {
      const counts = {};
      others.forEach((b) => { counts[b.side] = (counts[b.side] || 0) + 1; });
      list.append(el("span", Object.keys(counts).map((s) => t("blocks of %(side)s: %(n)s", {n: counts[s], side: sideName(s)})).join(", "), "count"));
    }
    if (title) tray.querySelector("h2").textContent = t("%(place)s (%(n)s)", {place: title, n: blocks.length});
  }

  function newTray(place) {
    const tray = el("section", undefined, "tray");
    tray.dataset.place = place.key;
    const h = el("h2");
    h.id = "tray-" + place.key.replace(/\W/g, "-");
    tray.setAttribute("aria-labelledby", h.id);
    tray.append(h, el("div", undefined, "blocks"));
    return tray;
  }

  function renderTrays() {
    const at = {};
    state.blocks.forEach((b) => { (at[b.at] = at[b.at] || []).push(b); });
    fillTray(document.querySelector('.tray.hand'), at.hand || []);
    const order = (p) => [p.side === mySide ? 0 : 1, p.side || ""];
    const offMap = state.places.filter((p) => p.kind === "levy_pool" || p.kind === "eliminated")
      .sort((a, b) => { const x = order(a), y = order(b); return x[0] - y[0] || byName(x[1], y[1]); });
    const pools = $("pools");
    const gone = document.querySelector("#eliminated .trays");
    pools.replaceChildren();
    gone.replaceChildren();
    offMap.forEach((p) => {
      const tray = newTray(p);
      fillTray(tray, at[p.key] || [], placeWords(p.key), p.side);
      (p.kind === "levy_pool" ? pools : gone).append(tray);
    });
    // A block to put right in an eliminated area is never hidden in the folded section.
    const steps = (state.table && state.table.instructions) || [];
    const named = (k) => typeof k === "string" && / eliminated$/.test(k);
    if (state.blocks.some((b) => b.at.startsWith("eliminated:") && b.movable && misplaced(b))
        || steps.some((s) => s.params && (named(s.params.from) || named(s.params.to)))) $("eliminated").open = true;
    const box = $("here");
    box.hidden = !here;
    svg.querySelectorAll("g.loc.here").forEach((g) => g.classList.remove("here"));
    if (here) {
      box.dataset.place = here;
      fillTray(box, at[here] || [], here);
      if (locs[here]) locs[here].g.classList.add("here");
    }
  }

  function glyph(b, x, y, size, text, sub) {
    const g = svgEl("g", {}, "glyph " + colour(b) + (provisional(b) ? " provisional" : "") +
      (b.token === selected ? " selected" : ""));
    g.append(svgEl("rect", {x: x - size / 2, y: y - size / 2, width: size, height: size, rx: size / 8}));
    if (text) {
      const label = svgEl("text", {x: x, y: sub ? y - size * 0.2 : y});
      label.style.fontSize = size * (text.length > 2 ? 0.3 : 0.38) + "px";   // the map's text rule is CSS: so is this
      label.textContent = text;
      g.append(label);
    }
    if (sub) {
      const s = svgEl("text", {x: x, y: y + size * 0.24});
      s.style.fontSize = size * 0.42 + "px";
      s.textContent = sub;
      g.append(s);
    }
    return g;
  }

  // One side's blocks at a location, within a w x h box around (x, y): the owner's few blocks one
  // by one (short label and strength) while each stays at least 0.6 of a target's radius, else (and
  // any other side's group) as a stack with its count. Never specks: a contested place gives each
  // side half its width and its full height.
  function drawGroup(blocks, x, y, w, h) {
    const named = blocks.every((b) => b.label);
    const cols = blocks.length === 1 || w < h ? 1 : 2;
    const rows = Math.ceil(blocks.length / cols);
    const each = Math.min(w / cols, h / rows, h / 2) - 3;
    if (named && blocks.length <= 4 && each >= 0.6 * R) {
      blocks.forEach((b, i) => {
        const gx = x + ((i % cols) - (cols - 1) / 2) * (each + 3);
        const gy = y + (Math.floor(i / cols) - (rows - 1) / 2) * (each + 3);
        layer.append(glyph(b, gx, gy, each, shortLabel(b.label), b.strength ? String(b.strength) : ""));
      });
      return;
    }
    const size = Math.min(w, h) * 0.72;
    const shown = Math.min(blocks.length, 3);
    for (let i = shown - 1; i >= 0; i--) {
      const top = i === 0;
      layer.append(glyph(blocks[i], x + i * size * 0.12, y - i * size * 0.12, size,
        top ? (blocks.length > 1 ? String(blocks.length) : (blocks[0].label ? shortLabel(blocks[0].label) : "")) : "",
        top && blocks.length === 1 && blocks[0].strength ? String(blocks[0].strength) : ""));
    }
  }

  function renderMap() {
    layer.replaceChildren();
    const at = {};
    state.blocks.forEach((b) => { if (locs[b.at]) (at[b.at] = at[b.at] || []).push(b); });
    names.forEach((name) => {
      const loc = locs[name];
      const standing = sortBlocks(at[name] || []);
      const sides = [...new Set(standing.map((b) => b.side))];
      const span = 2 * R * 0.9;
      sides.forEach((s, i) => {
        const x = loc.x + (sides.length > 1 ? (i - 0.5) * span / 2 : 0);
        drawGroup(standing.filter((b) => b.side === s), x, loc.cy, span / sides.length, span);
      });
      loc.g.setAttribute("aria-label", locationWords(name, standing));
      loc.g.classList.toggle("target", !!selected);
    });
    // Where the owner's placed blocks stood in the game: a dashed outline until Done plays them.
    state.blocks.filter((b) => provisional(b) && locs[b.game]).forEach((b) => {
      const loc = locs[b.game];
      const ghost = svgEl("g", {}, "ghost");
      ghost.append(svgEl("rect", {x: loc.x - R * 1.8, y: loc.cy - R * 0.35, width: R * 0.7, height: R * 0.7, rx: 4}));
      layer.append(ghost);
    });
  }

  function locationWords(name, blocks) {
    if (!blocks.length) return t("%(place)s: no blocks", {place: name});
    const parts = [];
    const mine = blocks.filter((b) => b.label);
    mine.forEach((b) => parts.push(blockWords(b) + (provisional(b) ? " " + t("(moved from %(from)s)", {from: placeWords(b.game)}) : "")));
    const counts = {};
    blocks.filter((b) => !b.label).forEach((b) => { counts[b.side] = (counts[b.side] || 0) + 1; });
    Object.keys(counts).forEach((s) => parts.push(t("blocks of %(side)s: %(n)s", {n: counts[s], side: sideName(s)})));
    return t("%(place)s: %(blocks)s", {place: name, blocks: parts.join("; ")});
  }

  function renderPlanned() {
    const box = $("planned");
    box.replaceChildren();
    const moved = sortBlocks(state.blocks.filter((b) => provisional(b) && b.at !== "hand"));
    const away = sortBlocks(state.blocks.filter(misplaced));
    const tb = state.table || {};
    const left = tb.left;
    if (!moved.length && !left && !away.length) { box.hidden = true; return; }
    box.hidden = false;
    if (moved.length) {
      box.append(el("p", t("Not played until Done:")));
      const list = el("ul");
      moved.forEach((b) => list.append(el("li", t("%(block)s: %(from)s → %(to)s",
        {block: blockWords(b), from: placeWords(b.game), to: placeWords(b.at)}))));
      box.append(list);
    }
    if (away.length) {
      // Played already (on a phone, or taken back): the block goes where the game has it.
      box.append(el("p", t("To carry where the game has them:")));
      const list = el("ul", undefined, "away");
      away.forEach((b) => list.append(el("li", t("%(block)s: %(from)s → %(to)s",
        {block: blockWords(b), from: placeWords(b.at), to: placeWords(b.game)}))));
      box.append(list);
    }
    if (left) box.append(el("p", t("After Done, moves left: %(mp)s, levies left: %(lp)s", {mp: left.mp_left, lp: left.lp_left})));
  }

  function renderStatus() {
    const part = state.table;
    const parts = [];
    if (part && part.waiting_text) parts.push(part.waiting_text);
    else if (state.pending && state.pending.length) {
      parts.push(t("waiting for %(who)s", {who: state.pending.map((d) => d.text).join("; ")}));
    }
    const first = part && part.instructions && part.instructions.length ? part.instructions[0].text : "";
    if (first && !parts.some((p) => p.includes(first))) parts.push(first);
    $("status").textContent = parts.join(" — ") || "…";
    // A new game's board: every block set out in one step, not one instruction at a time.
    $("set-out").hidden = !state.set_out;
    // Playing the Pi: how its blocks are counted, said once where its blocks are handled.
    $("pi-rows").hidden = !(mySide && (state.pi || []).some((s) => s !== mySide));
    // The table's latest word to this side (a refused placement, a reader gone silent), while it lasts.
    const said = part && part.messages && part.messages.length ? part.messages[0] : null;    // the latest first
    if (!said) { if (shownMessage) { shownMessage = ""; message(""); } } else if (said.text !== shownMessage) {
      shownMessage = said.text;
      message(said.text, true);
    }
  }

  function renderHint() {
    const held = selected && state.blocks.find((b) => b.token === selected);
    $("hint").textContent = held ? t("Holding %(block)s: tap a location or a tray to set it down.", {block: blockWords(held)})
      : (mySide ? t("Tap a block to lift it, then tap where to set it down.") : $("hint").textContent);
    $("pick-set").disabled = !held;
    document.querySelectorAll(".tray").forEach((tray) => tray.classList.toggle("target", !!held));
  }

  function renderPicker() {
    const pick = $("place-pick");
    if (pick.options.length) return;
    const off = state.places.filter((p) => p.kind === "levy_pool" || p.kind === "eliminated").map((p) => p.key);
    [...names.sort(byName), ...off].forEach((key) => {
      const o = el("option", placeWords(key));
      o.value = key;
      pick.append(o);
    });
  }

  function render(next) {
    if (!next || !next.blocks) return;
    // A new epoch: the server restarted and counts its versions from the start again.
    if (next.epoch !== epoch) { epoch = next.epoch; version = -1; }
    if (next.version < version) return;
    version = next.version;
    state = next;
    heard();
    settleFaces();
    if (selected && !state.blocks.some((b) => b.token === selected && b.at === "hand")) selected = null;
    // Focus stays on the same block or place across the redraw (the trays are rebuilt).
    const focused = document.activeElement;
    const token = focused && focused.dataset ? focused.dataset.token : null;
    renderStatus();
    renderPicker();
    renderTrays();
    renderMap();
    renderPlanned();
    renderHint();
    if (token) {
      const again = document.querySelector(`button[data-token="${CSS.escape(token)}"]`);
      if (again) again.focus();
    }
    if (!centred) {
      centred = true;
      const mine = state.blocks.find((b) => b.side === mySide && locs[b.at]);
      centreOn(mine ? mine.at : "Roma");
    }
  }

  // `unanswered`: the message says the table did not answer, so it ends once the table is heard again.
  let unanswered = false;
  function message(text, bad, noAnswer) {
    const m = $("message");
    unanswered = !!noAnswer;
    m.hidden = !text;
    m.textContent = text || "";
    m.className = "message" + (bad ? " bad" : "");
  }
  function heard() {
    if (unanswered) message("");
  }

  // The faces of the last roll are said while its battle goes on, until the next roll is asked.
  const BATTLE_KINDS = ["battle-turn", "take-hit", "regroup", "dice"];
  let rolledAt = -1;     // the state's version the roll's answer carried
  function settleFaces() {
    const faces = $("faces");
    if (!faces.textContent || version <= rolledAt) return;
    const pending = state.pending || [];
    if ((state.table || {}).dice || !pending.some((d) => BATTLE_KINDS.indexOf(d.kind) >= 0)) faces.textContent = "";
  }

  // --- acting ---------------------------------------------------------------------------------
  async function post(url, body) {
    let r;
    try {
      r = await fetch(url, {
        method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-CSRFToken": csrf, "Accept": "application/json"},
        body: JSON.stringify(body),
      });
    } catch (e) {
      message(t("the table does not answer: is rubicon run still running?"), true, true);
      return null;
    }
    const data = await r.json().catch(() => ({ok: false, refusal: {text: t("the table did not answer (%(status)s)", {status: r.status})}}));
    if (!data.ok) {
      message((data.refusal && data.refusal.text) || t("the table did not answer (%(status)s)", {status: r.status}), true);
      return null;
    }
    message("");
    shownMessage = "";
    if (data.state) render(data.state);
    return data;
  }

  async function setDown(place) {
    const token = selected;
    if (!token || !place) return;
    selected = null;
    if (await post(root.dataset.move, {token: token, to: place})) {
      const b = state.blocks.find((x) => x.token === token);
      if (b) $("hint").textContent = t("%(block)s set down in %(place)s.", {block: blockWords(b), place: placeWords(place)});
    } else {
      selected = token;
    }
    render(state);
  }

  async function lift(token) {
    if (await post(root.dataset.move, {token: token, to: "hand"})) {
      selected = token;
      render(state);
      const again = document.querySelector(`.tray.hand button[data-token="${CSS.escape(token)}"]`);
      if (again) again.focus();
    }
  }

  function showHere(place) {
    here = place;
    render(state);
    const first = $("here").querySelector("button");
    (first || $("here")).focus();
  }

  async function blockPressed(btn) {
    const token = btn.dataset.token;
    const tray = btn.closest(".tray");
    const place = tray ? tray.dataset.place : null;
    if (place === "hand") {
      selected = selected === token ? null : token;
      render(state);
    } else if (selected && selected !== token) {
      await setDown(place);
    } else {
      await lift(token);
    }
  }

  function placePressed(name) {
    if (selected) setDown(name); else showHere(name);
  }

  document.addEventListener("click", async (ev) => {
    if (!state) return;
    const block = ev.target.closest("button[data-token]");
    if (block) { await blockPressed(block); return; }
    const loc = ev.target.closest("g.loc");
    if (loc) { placePressed(loc.dataset.name); return; }
    const tray = ev.target.closest(".tray");
    if (tray && selected && tray.dataset.place) { await setDown(tray.dataset.place); return; }
    const roll = ev.target.closest("button.roll");
    if (roll) {
      const data = await post(root.dataset.roll, {count: +roll.dataset.count});
      if (data) {
        rolledAt = data.state ? data.state.version : version;
        $("faces").textContent = t("Rolled: %(faces)s", {faces: data.faces.join(" ")});
      }
      return;
    }
    if (ev.target.closest("#set-out")) { await post(root.dataset.setOut, {}); return; }
    const press = ev.target.closest("button.press");
    if (press) await post(root.dataset.press, {button: press.dataset.button});
  });

  // The map's locations are buttons: Enter or Space presses them, as they do a real button.
  svg.addEventListener("keydown", (ev) => {
    const loc = ev.target.closest && ev.target.closest("g.loc");
    if (!loc || !state || (ev.key !== "Enter" && ev.key !== " ")) return;
    ev.preventDefault();
    placePressed(loc.dataset.name);
  });

  $("pick-show").addEventListener("click", () => { if (state) showHere($("place-pick").value); });
  $("pick-set").addEventListener("click", () => { if (state) setDown($("place-pick").value); });

  // --- the live stream (js/stream.js, as the phones and the TV follow theirs) ----------------------
  function setConn(text, ok) {
    const c = $("conn");
    c.textContent = text;
    c.className = "conn " + (ok ? "ok" : "down");
    if (ok) heard();
  }
  const {reconnect} = follow({state: root.dataset.state, stream: root.dataset.stream}, render, setConn, t,
    () => { $("status").textContent = t("the table does not answer: is rubicon run still running?"); });

  fitMap();
  window.addEventListener("resize", fitMap);
  reconnect();
})();
