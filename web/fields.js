// The pages' fields and their errors: a count typed in a field, checked
// as it is typed, and an error of the engine put beside the field it
// names.

export const $ = (id) => document.getElementById(id);

// Put each error beside its field: the element `${prefix}err-${field}`
// when the page has one, else `fallback`. Clears the page's old errors.
// What a field refused as it was typed (marked data-typed) stays until
// the field is put right; the server's errors go at the next request.
export function clearErrors(section) { section.querySelectorAll(".field-error:not([data-typed])").forEach((e) => { e.textContent = ""; }); }
export function showError(section, prefix, e, fallback) {
  clearErrors(section);
  const el = e.field && $(prefix + "err-" + e.field);
  if (el) { el.textContent = e.message; delete el.dataset.typed; } else fallback.textContent = e.message;
}

// An error element's text, kept until its field is put right (`typed`).
export function sayTyped(err, message) { err.textContent = message; err.dataset.typed = "1"; }
// The error element's typed text gone (its field is right now).
export function clearTyped(err) { err.textContent = ""; delete err.dataset.typed; }

// Text `t` is a whole number in lo..hi (hi null: not known yet, no
// upper bound). Letters, "-3", "2.7", "1e3" and blanks are not.
export const wholeWithin = (t, lo, hi) => /^\d+$/.test(t) && Number(t) >= lo && (hi == null || Number(t) <= hi);
// "a whole number from 1 to 16" ("from 1 up" while the bound is not known).
export const wholeWords = (lo, hi) => `a whole number from ${lo} ${hi == null ? "up" : "to " + hi}`;

// A whole number in lo..hi typed in `input`, or null with the reason beside
// it (the element its aria-describedby names) and the field marked invalid.
export function readCount(input, lo, hi, what) {
  const err = $(input.getAttribute("aria-describedby"));
  const t = input.value.trim();
  const ok = wholeWithin(t, lo, hi);
  input.setAttribute("aria-invalid", String(!ok));
  if (ok) { if (err.dataset.typed) clearTyped(err); }
  else sayTyped(err, `${what}: ${wholeWords(lo, hi)}` + (t ? ` ("${t}" is not one).` : " (it is blank)."));
  return ok ? Number(t) : null;
}
// Put `v` in a count field, which is then right.
export function setField(input, v) {
  input.value = v; input.setAttribute("aria-invalid", "false");
  const err = $(input.getAttribute("aria-describedby"));
  if (err.dataset.typed) clearTyped(err);
}
// The fields of `section` refused as typed, first one first.
export const invalidFields = (section) => [...section.querySelectorAll('input[aria-invalid="true"]')].filter((e) => !e.closest("[hidden]"));

// "1 turn", "26,286 turns": digits grouped, the noun in the right number.
export function count(n, noun) { return `${Number(n).toLocaleString("en")} ${noun}${Number(n) === 1 ? "" : "s"}`; }
