// Draws the position a replay page is asked for, from the page's data: the pieces of
// each position (cell, look, pieces in the stack, height drawn), the cells the ply
// before it changed, and its status line. `#ply=N` in the URL picks the position;
// buttons, the left and right keys, Home and End, and the list of plies step through.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var svgNS = "http://www.w3.org/2000/svg";
  var view = document.getElementById("position");
  var marks = view.querySelector(".marks");
  var pieces = view.querySelector(".pieces");
  var caption = view.querySelector(".status");
  var counter = document.getElementById("counter");
  var items = document.querySelectorAll("#plies li");
  var last = data.positions.length - 1;
  var current = 0;

  function make(name, attributes) {
    var element = document.createElementNS(svgNS, name);
    Object.keys(attributes).forEach(function (key) {
      element.setAttribute(key, String(attributes[key]));
    });
    return element;
  }

  function draw(position) {
    marks.textContent = "";
    pieces.textContent = "";
    position.changed.forEach(function (cell) {
      marks.appendChild(make("use", {
        "class": "mark",
        "href": "#mark",
        "data-cell": data.cells[cell],
        "transform": "translate(" + data.at[cell] + ")"
      }));
    });
    position.pieces.forEach(function (piece) {
      var cell = piece[0];
      var look = data.looks[piece[1]];
      var group = make("g", {
        "class": "piece",
        "data-cell": data.cells[cell],
        "data-piece": look.symbol,
        "data-owner": look.owner,
        "data-kind": look.kind,
        "data-pieces": piece[2],
        "transform": "translate(" + data.at[cell] + ")"
      });
      var bar = data.bars ? data.bars[cell] : null;
      if (bar) {
        // A piece on an edge or point: a bar along it, as pictures draw it.
        group.setAttribute("class", "piece place");
        group.appendChild(make("rect", {
          "class": "piece-outline", "fill": data.fills[piece[1]],
          "x": -bar[0] / 2, "y": -bar[1] / 2, "width": bar[0], "height": bar[1]
        }));
      } else {
        group.appendChild(make("use", { "href": "#" + look.id }));
      }
      if (piece[3] !== null) {
        var height = make("text", { "class": "height", "x": data.height[0], "y": data.height[1] });
        height.textContent = piece[3];
        group.appendChild(height);
      }
      pieces.appendChild(group);
    });
  }

  function show(ply) {
    current = Math.max(0, Math.min(last, ply));
    var position = data.positions[current];
    draw(position);
    view.setAttribute("data-ply", String(current));
    caption.textContent = position.status;
    counter.textContent = "ply " + current + " of " + last;
    for (var i = 0; i < items.length; i++) {
      var here = Number(items[i].getAttribute("data-ply")) === current;
      items[i].classList.toggle("current", here);
      if (here) {
        items[i].setAttribute("aria-current", "step");
        items[i].scrollIntoView({ block: "nearest" });
      } else {
        items[i].removeAttribute("aria-current");
      }
    }
    if (location.hash !== "#ply=" + current) {
      try {
        history.replaceState(null, "", "#ply=" + current);
      } catch (e) {
        // A page opened where the address cannot change still steps.
      }
    }
  }

  function asked() {
    var found = /ply=(\d+)/.exec(location.hash);
    return found ? parseInt(found[1], 10) : 0;
  }

  document.getElementById("first").addEventListener("click", function () { show(0); });
  document.getElementById("back").addEventListener("click", function () { show(current - 1); });
  document.getElementById("next").addEventListener("click", function () { show(current + 1); });
  document.getElementById("last").addEventListener("click", function () { show(last); });
  for (var i = 0; i < items.length; i++) {
    items[i].addEventListener("click", function (event) {
      show(Number(event.currentTarget.getAttribute("data-ply")));
    });
  }
  document.addEventListener("keydown", function (event) {
    var steps = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last };
    if (Object.prototype.hasOwnProperty.call(steps, event.key)) {
      event.preventDefault();
      show(steps[event.key]);
    }
  });
  window.addEventListener("hashchange", function () { show(asked()); });
  show(asked());
})();
