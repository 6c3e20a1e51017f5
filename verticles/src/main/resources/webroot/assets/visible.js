// The dashboard's half of the rule that shows unusual text as escapes: dev.ratchet.runtime.VisibleText
// (docs/SECURITY.md) decides the same way, with the data it puts in the vocabulary. Invisible
// characters (controls, bidi overrides, zero-width and other format characters, odd spaces, tag
// characters) and look-alikes (letters mixing scripts in one word, fullwidth or mathematical forms of
// ASCII, foreign digits among ASCII ones) show as \x1b, \u202e or \u{e0041}, so that an argument
// cannot display as another value than the one sent; line feeds and tabs stay as they are.
'use strict';

const Visible = (() => {
  const CATEGORY = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Zs}\p{Co}\p{Cs}]/u;
  const LETTER = /\p{L}/u;
  const DIGIT = /\p{Nd}/u;
  const WORD = /[\p{L}\p{Nd}\p{M}]/u;
  const ASCII_ALNUM = /^[A-Za-z0-9]+$/;
  let rules = { scripts: [], writtenTogether: [], invisible: [] };
  let tests = [];
  const scriptOf = new Map();

  /** Takes the rule's data from the vocabulary; a script name this browser does not know is skipped. */
  function init(data) {
    if (!data) return;
    rules = data;
    tests = data.scripts.flatMap(name => {
      try { return [[name, new RegExp('^\\p{Script=' + name + '}$', 'u')]]; } catch (e) { return []; }
    });
  }

  function script(ch) {
    if (!scriptOf.has(ch)) {
      const found = tests.find(([, re]) => re.test(ch));
      scriptOf.set(ch, found ? found[0] : null);
    }
    return scriptOf.get(ch);
  }

  function invisible(cp, ch) {
    return cp !== 0x20 && (CATEGORY.test(ch) || rules.invisible.some(([a, b]) => cp >= a && cp <= b));
  }

  function compatibilityLookAlike(cp, ch) {
    if (cp < 0x80 || !(LETTER.test(ch) || DIGIT.test(ch))) return false;
    const folded = ch.normalize('NFKC');
    return folded.length > 0 && ASCII_ALNUM.test(folded);
  }

  function mixed(word) {
    const scripts = new Set();
    let asciiDigit = false; let otherDigit = false;
    for (const [cp, ch] of word) {
      if (LETTER.test(ch)) { const s = script(ch); if (s) scripts.add(s); }
      else if (DIGIT.test(ch)) { if (cp < 0x80) asciiDigit = true; else otherDigit = true; }
    }
    return (asciiDigit && otherDigit) || (scripts.size > 1
      && !rules.writtenTogether.some(set => [...scripts].every(s => set.includes(s))));
  }

  function escapeOf(cp) {
    const hex = cp.toString(16);
    return cp < 0x80 ? '\\x' + hex.padStart(2, '0') : cp <= 0xffff ? '\\u' + hex.padStart(4, '0') : '\\u{' + hex + '}';
  }

  /** The text as it is safe to show, and whether anything in it was escaped. */
  function shown(text) {
    const points = [];
    for (const ch of text) points.push([ch.codePointAt(0), ch]);
    const marked = points.map(([cp, ch]) => invisible(cp, ch) || compatibilityLookAlike(cp, ch));
    let start = -1;
    for (let i = 0; i <= points.length; i++) {
      const inWord = i < points.length && WORD.test(points[i][1]);
      if (inWord && start < 0) start = i;
      else if (!inWord && start >= 0) {
        if (mixed(points.slice(start, i))) for (let j = start; j < i; j++) if (points[j][0] >= 0x80) marked[j] = true;
        start = -1;
      }
    }
    let unusual = false;
    const out = points.map(([cp, ch], i) => {
      if (cp === 0x0a || cp === 0x09 || !marked[i]) return ch;
      unusual = true;
      return escapeOf(cp);
    }).join('');
    return { text: out, unusual };
  }

  /**
   * Marks a card or a call that shows escaped text: a warning first, and data-unusual on it, so
   * that a person does not approve a value that is not what it seems.
   */
  function markUnusual(container) {
    if (!container.querySelector('.unusual-text')) return container;
    container.dataset.unusual = 'true';
    const warning = document.createElement('p');
    warning.className = 'unusual-warning';
    warning.setAttribute('role', 'alert');
    warning.textContent = 'Contains invisible or look-alike characters, shown as escapes such as \\u202e:'
      + ' what is shown may not be what it seems.';
    const heading = container.querySelector('h3, .call-head');
    if (heading) heading.after(warning); else container.prepend(warning);
    return container;
  }

  return { init, shown, markUnusual };
})();
