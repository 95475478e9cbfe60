// The page's script, served at /page.js (see web.go). It disables the
// fields the chosen variant does not use and leaves empty fields out of
// the submitted URL; and it updates the answer as you type: a moment
// (debounce ms) after the last change it fetches the page of the form's
// values from the server, puts its answer (#out) in place of this one and
// makes its URL the address, so that every state stays a link. Without
// JavaScript the form works as a plain GET form.
(function () {
  var uses = {
    "standard": ["n", "p", "m", "k"],
    "partitioned": ["n", "p", "m", "k"],
    "counting": ["n", "p", "m", "k", "width"],
    "blocked": ["n", "p", "m", "k", "B"],
    "split-block": ["n", "p", "m"],
    "multiblock": ["n", "p", "m", "k", "word", "multi", "stride"],
    "scalable": ["n", "p", "B", "r", "s", "n0", "mem"],
    "age-partitioned": ["n", "p", "mem"]
  };
  var debounce = 300;
  var form = document.getElementById("calc");
  var variant = document.getElementById("in-variant");
  var status = document.getElementById("status");
  function update() {
    var u = uses[variant.value] || [];
    for (var i = 0; i < form.elements.length; i++) {
      var el = form.elements[i];
      if (el.tagName === "INPUT") el.disabled = u.indexOf(el.name) < 0;
    }
  }
  // query is the form's query: the variant, then every enabled field that
  // is not empty, in the form's order (that of the server's links).
  function query() {
    var parts = [];
    for (var i = 0; i < form.elements.length; i++) {
      var el = form.elements[i];
      if (!el.name || el.disabled) continue;
      var v = el.value.trim();
      if (v === "") continue;
      parts.push(encodeURIComponent(el.name) + "=" + encodeURIComponent(v).replace(/%20/g, "+"));
    }
    return parts.join("&");
  }
  var timer = null, pending = null, shown = location.search.slice(1);
  function refresh() {
    var q = query();
    if (q === shown) return;
    if (pending) pending.abort();
    var ctl = window.AbortController ? new AbortController() : null;
    pending = ctl;
    status.textContent = "computing…";
    fetch("/?" + q, { signal: ctl ? ctl.signal : undefined, headers: { "Accept": "text/html" } })
      .then(function (r) { return r.text(); })
      .then(function (text) {
        if (pending !== ctl) return;
        var doc = new DOMParser().parseFromString(text, "text/html");
        var out = doc.getElementById("out");
        var here = document.getElementById("out");
        if (!out || !here) return;
        here.replaceWith(document.importNode(out, true));
        document.title = doc.title;
        history.replaceState(null, "", "/?" + q);
        shown = q;
        status.textContent = "";
        pending = null;
      })
      .catch(function (e) {
        if (e && e.name === "AbortError") return;
        status.textContent = "not updated (" + e + "); press Compute";
      });
  }
  function changed() {
    if (timer) clearTimeout(timer);
    timer = setTimeout(refresh, debounce);
  }
  variant.addEventListener("change", function () { update(); changed(); });
  form.addEventListener("input", changed);
  form.addEventListener("submit", function () {
    // Empty and unused fields stay out of the URL.
    for (var i = 0; i < form.elements.length; i++) {
      var el = form.elements[i];
      if (el.tagName === "INPUT" && el.value.trim() === "") el.disabled = true;
    }
  });
  window.addEventListener("pageshow", update);
  update();
})();
