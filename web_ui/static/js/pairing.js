// Pairing codes: a QR code and its link (on the TV, or on a phone inviting a device).
import {el, side, t} from "./core.js";

// A one-time pairing code: its QR code and its link (on the TV, or on a phone inviting a device).
export function pairCode(name, code, title) {
  const box = el("div", undefined, "pair-code");
  box.append(el("h2", title));
  const img = el("img");
  img.src = code.qr;
  img.alt = t("QR code to pair %(side)s", {side: side(name)});
  box.append(img);
  const a = el("a", code.link);
  a.href = code.link;
  box.append(a);
  return box;
}
