// The game viewer: previous/next buttons, the slider, the arrow keys and the move list show the
// board before any move (an SVG the server draws) without reloading the page.
(function () {
  var viewer = document.getElementById("viewer");
  if (!viewer) return;
  var count = parseInt(viewer.dataset.count, 10);
  var shown = parseInt(viewer.dataset.shown, 10);
  var slider = document.getElementById("slider");
  var where = document.getElementById("where");
  var board = document.getElementById("board");
  var base = board.getAttribute("src").replace(/[0-9]+\.svg$/, "");
  function show(n) {
    n = Math.max(1, Math.min(count, n));
    document.getElementById("move-" + shown).classList.remove("current");
    shown = n;
    var item = document.getElementById("move-" + shown);
    board.src = base + shown + ".svg";
    board.alt = "the board before move " + shown + ": position " + item.dataset.position;
    board.dataset.position = item.dataset.position;
    item.classList.add("current");
    item.scrollIntoView({block: "nearest"});
    slider.value = shown;
    where.textContent = shown + " / " + count;
    viewer.dataset.shown = shown;
    history.replaceState(null, "", "?move=" + shown);
  }
  document.getElementById("prev").addEventListener("click", function (e) { e.preventDefault(); show(shown - 1); });
  document.getElementById("next").addEventListener("click", function (e) { e.preventDefault(); show(shown + 1); });
  slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
  document.getElementById("moves").addEventListener("click", function (e) {
    var li = e.target.closest("li");
    if (li) { e.preventDefault(); show(parseInt(li.id.slice(5), 10)); }
  });
  document.addEventListener("keydown", function (e) {
    if (e.target === slider) return;
    if (e.key === "ArrowLeft") show(shown - 1);
    else if (e.key === "ArrowRight") show(shown + 1);
    else if (e.key === "Home") show(1);
    else if (e.key === "End") show(count);
  });
})();
