// The page's script, served at /page.js (see web.go): it disables the
// fields the chosen variant does not use, and leaves empty fields out of
// the submitted URL.
(function () {
  var uses = {
    "standard": ["n", "p", "m", "k"],
    "partitioned": ["n", "p", "m", "k"],
    "counting": ["n", "p", "m", "k", "width"],
    "blocked": ["n", "p", "m", "k", "B"],
    "split-block": ["n", "p", "m"],
    "scalable": ["n", "p", "B", "r", "s", "n0"]
  };
  var form = document.getElementById("calc");
  var variant = document.getElementById("in-variant");
  function update() {
    var u = uses[variant.value] || [];
    for (var i = 0; i < form.elements.length; i++) {
      var el = form.elements[i];
      if (el.tagName === "INPUT") el.disabled = u.indexOf(el.name) < 0;
    }
  }
  variant.addEventListener("change", update);
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
