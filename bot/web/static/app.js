// The live page: draws the tournament from its JSON and keeps it current.
// Every name goes into the page as text (textContent), never as markup. Updates arrive as
// server-sent events carrying the version and each part's stamp; only the parts whose stamp
// moved are fetched again. Without event streams, the same notice is polled.
(() => {
  "use strict";
  const data = JSON.parse(document.getElementById("pm-data").textContent);
  const T = data.texts;
  const lang = data.lang;
  const base = "/t/" + data.slug;
  const chosenLang = new URLSearchParams(location.search).get("lang");
  const main = document.getElementById("pm-main");
  const live = document.getElementById("pm-live");
  const nav = document.getElementById("pm-nav");
  let section = data.section;
  // A published list's number on its own page (/decklists/N).
  let deckNumber = section === "deck" ? Number(location.pathname.split("/").pop()) : null;
  const parts = data.parts;
  let notice = data.notice;
  let skew = 0; // server time minus this device's time, in ms
  let pairingsRound = null; // null: the current round
  let standingsPage = 1;
  let decksPage = 1;
  let lastUpdate = new Date();
  let mode = "live";
  const nameKey = "pm-name-" + data.slug;

  // A text with its placeholders filled in one pass: a name that reads "{loser}" stays that
  // name. A value with right-to-left letters or direction controls is isolated (FSI … PDI),
  // so an override in a name ends with the name instead of turning the sentence around.
  const RIGHT_TO_LEFT = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF\u200E\u200F\u202A-\u202E\u2066-\u2069]|[\uD802\uD803\uD83A\uD83B][\uDC00-\uDFFF]/;
  function tr(key, params) {
    const text = T[key] !== undefined ? T[key] : key;
    if (!params) return text;
    return text.replace(/\{(\w+)\}/g, (whole, name) => {
      if (!Object.prototype.hasOwnProperty.call(params, name)) return whole;
      const value = String(params[name]);
      return RIGHT_TO_LEFT.test(value) ? "\u2068" + value + "\u2069" : value;
    });
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name === "class") node.className = value;
      else if (name === "text") node.textContent = value;
      else node.setAttribute(name, value);
    }
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      node.append(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }

  function link(path, params) {
    const query = new URLSearchParams(params || {});
    if (chosenLang) query.set("lang", chosenLang);
    const text = query.toString();
    return base + path + (text ? "?" + text : "");
  }

  const fold = (text) => text.normalize("NFKC").toLowerCase();
  const locale = lang === "ja" ? "ja-JP" : "en-GB";
  const clockTime = (iso) =>
    new Date(iso).toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit" });

  function formatPoints(value) {
    return Number.isInteger(value) ? String(value) : String(value);
  }

  // -- fetching ---------------------------------------------------------------------------

  async function fetchJson(path, params) {
    const response = await fetch(link(path, params), { headers: { Accept: "application/json" } });
    const server = Number(response.headers.get("X-Server-Time"));
    if (server) skew = server - Date.now();
    if (response.status === 404) return null;
    if (!response.ok) throw new Error("HTTP " + response.status);
    return response.json();
  }

  const partPath = {
    overview: () => ["/api/overview.json", {}],
    pairings: () => ["/api/pairings.json", pairingsRound ? { round: pairingsRound } : {}],
    standings: () => ["/api/standings.json", standingsPage > 1 ? { page: standingsPage } : {}],
    bracket: () => ["/api/bracket.json", {}],
    decklists: () => ["/api/decklists.json", decksPage > 1 ? { page: decksPage } : {}],
    titles: () => ["/api/titles.json", {}],
    deck: () => ["/api/decklists/" + deckNumber + ".json", {}],
  };

  async function load(part) {
    const [path, params] = partPath[part]();
    // At least the version we were told of (the server may otherwise answer a moment late).
    if (notice.version > 0) params.v = notice.version;
    parts[part] = await fetchJson(path, params);
  }

  // The parts this section shows.
  function needed() {
    const wanted = ["overview"];
    if (section === "overview" && localStorage.getItem(nameKey)) wanted.push("pairings");
    if (partPath[section]) wanted.push(section);
    return [...new Set(wanted)];
  }

  // A section's content; the parts it leaves out (null: a pager of one page) are not text.
  function fill(...nodes) {
    main.replaceChildren(...nodes.filter((node) => node !== null && node !== undefined && node !== false));
  }

  // -- the header -------------------------------------------------------------------------

  function drawNav() {
    const overview = parts.overview;
    const tabs = [["overview", ""], ["pairings", "/pairings"], ["standings", "/standings"]];
    if (overview.format !== "swiss") tabs.push(["bracket", "/bracket"]);
    if (overview.decks_published) tabs.push(["decklists", "/decklists"], ["titles", "/titles"]);
    const current = section === "deck" ? "decklists" : section;
    nav.replaceChildren(
      ...tabs.map(([name, path]) =>
        el("a", {
          href: link(path),
          class: name === current ? "tab current" : "tab",
          "aria-current": name === current ? "page" : null,
          text: tr("nav_" + name),
        }),
      ),
    );
  }

  function drawLive() {
    const state = mode === "live" ? tr("live") : mode === "polling" ? tr("polling", { seconds: 2 }) : tr("reconnecting");
    const time = lastUpdate.toLocaleTimeString(locale);
    live.replaceChildren(
      el("span", { class: "dot " + mode }),
      state + " · " + tr("updated", { time: time }),
    );
  }

  // A round as people name it: 第 3 回戦, or the top cut's stage (準決勝, 決勝).
  function roundName(overview, number) {
    const found = overview.rounds.find(([n]) => n === number);
    if (!found) return tr("round", { round: number });
    const [, , key, players] = found;
    return tr(key, { round: number, players: players });
  }

  // -- the clock --------------------------------------------------------------------------

  function clockBox(overview) {
    const box = el("div", { class: "clock", id: "pm-clock" });
    if (!overview.current_round) return null;
    const label = roundName(overview, overview.current_round);
    box.append(el("div", { class: "clock-round", text: label }));
    const over = overview.phase === "finished" || (overview.tables && overview.tables_finished === overview.tables);
    if (over) {
      box.append(el("div", { class: "clock-state", text: tr("state_finished") }));
    } else if (!overview.ends_at) {
      box.append(el("div", { class: "clock-state", text: tr("clock_not_started") }));
    } else {
      box.append(
        el("div", { class: "clock-left", "data-ends": overview.ends_at }),
        el("div", { class: "clock-state", text: tr("clock_ends", { time: clockTime(overview.ends_at) }) }),
      );
    }
    for (const extra of over ? [] : overview.extended) {
      box.append(
        el("div", {
          class: "clock-extra",
          "data-ends": extra.ends_at,
          text: tr("extended", { table: extra.table, minutes: extra.minutes, time: clockTime(extra.ends_at) }),
        }),
      );
    }
    if (overview.tables && !over) {
      box.append(
        el("div", {
          class: "progress",
          text: tr("progress", { done: overview.tables_finished, total: overview.tables }),
        }),
      );
    }
    return box;
  }

  // The header of a round other than the current one (chosen in the pairings): its name and
  // whether it is over, never the current round's clock.
  function roundBox(overview, pairing) {
    const played = pairing.tables.filter((table) => table.seats.length === 2);
    const done = played.filter((table) => table.state === "finished").length;
    const box = el("div", { class: "clock past", id: "pm-clock" }, el("div", { class: "clock-round", text: roundName(overview, pairing.round) }));
    if (done === played.length) box.append(el("div", { class: "clock-state", text: tr("state_finished") }));
    else box.append(el("div", { class: "progress", text: tr("progress", { done: done, total: played.length }) }));
    return box;
  }

  function tick() {
    for (const node of document.querySelectorAll(".clock-left[data-ends]")) {
      const left = Date.parse(node.dataset.ends) - (Date.now() + skew);
      if (left <= 0) {
        node.textContent = tr("clock_time_up");
        node.classList.add("up");
      } else {
        const seconds = Math.floor(left / 1000);
        const minutes = Math.floor(seconds / 60);
        node.textContent =
          tr("clock_left") + " " + minutes + ":" + String(seconds % 60).padStart(2, "0");
        node.classList.toggle("soon", minutes < 5);
      }
    }
  }

  // -- sections ---------------------------------------------------------------------------

  // A label and its value; the value's parts (a string, or a node kept on one line) in order.
  function fact(label, ...value) {
    return el("div", { class: "fact" }, el("dt", { text: label }), el("dd", {}, ...value));
  }

  function drawOverview() {
    const o = parts.overview;
    const facts = el("dl", { class: "facts" });
    facts.append(
      fact(tr("state"), tr("ui.state." + o.phase)),
      fact(tr("date"), o.event_date),
      fact(tr("format"), tr("ui.format." + o.format), o.top_cut ? el("span", { class: "keep", text: tr("top_cut_size", { count: o.top_cut }) }) : null),
      fact(tr("regulation"), tr("ui.regulation." + o.regulation)),
      fact(tr("time_limit"), tr("minutes", { minutes: o.time_limit_minutes })),
      fact(tr("rounds"), o.planned_rounds ? tr("rounds_value", { rounds: o.planned_rounds }) : tr("rounds_auto")),
      fact(tr("players"), playersText(o)),
    );
    const content = [clockBox(o) || el("p", { class: "note", text: tr("before_start") })];
    const mine = myTables();
    if (mine) content.push(mine);
    content.push(facts);
    fill(...content);
  }

  // Everyone who took part, with those who left said beside: 32 人（うち 1 人ドロップ）.
  function playersText(o) {
    const count = o.registered + (o.dropped || 0) + (o.disqualified || 0);
    let text = o.max_players ? tr("players_of", { count: count, max: o.max_players }) : tr("players_value", { count: count });
    const left = [
      o.dropped ? tr("players_dropped", { count: o.dropped }) : null,
      o.disqualified ? tr("players_disqualified", { count: o.disqualified }) : null,
    ].filter(Boolean);
    if (left.length) text = tr("players_left", { players: text, left: left.join(lang === "ja" ? "、" : ", ") });
    if (o.waitlisted) text += " · " + tr("waitlisted", { count: o.waitlisted });
    return text;
  }

  function myTables() {
    const name = localStorage.getItem(nameKey);
    const pairing = parts.pairings;
    if (!name || !pairing) return null;
    const found = pairing.tables.filter((table) => table.seats.some((seat) => fold(seat.name).includes(fold(name))));
    if (!found.length) return null;
    return el("section", { class: "mine" }, el("h2", { text: tr("my_table") }), el("ul", { class: "tables" }, ...found.map(tableItem)));
  }

  function resultText(result, seats) {
    if (!result) return "";
    const names = seats.map((seat) => (seat ? seat.name : tr("empty_slot")));
    const winner = result.winner === null ? "" : names[result.winner];
    const loser = result.winner === null ? "" : names[1 - result.winner];
    let key = "result_" + result.kind;
    const params = { winner: winner, loser: loser };
    if (result.kind === "judgement" || result.kind === "time_draw") {
      if (result.point_zone) {
        params.first = result.point_zone[0];
        params.second = result.point_zone[1];
      } else {
        key += "_unknown";
      }
    }
    let text = tr(key, params);
    if (result.advancing !== null && result.advancing !== undefined && result.kind === "time_draw") {
      text += " · " + tr("result_advancing", { player: names[result.advancing] });
    }
    return text;
  }

  function tableItem(table) {
    const item = el("li", { class: "table " + table.state, "data-names": table.seats.map((s) => fold(s.name)).join("\n") });
    item.append(el("div", { class: "table-no", text: tr("table", { table: table.table }) }));
    const seats = el("div", { class: "seats" });
    if (table.seats.length === 1) {
      seats.append(el("span", { class: "seat" }, el("span", { class: "name", text: table.seats[0].name }), el("span", { class: "pts", text: tr("bye") })));
    }
    if (table.seats.length === 2) {
      table.seats.forEach((seat, index) => {
        const won = table.result && table.result.winner === index;
        seats.append(
          el(
            "span",
            { class: won ? "seat won" : "seat" },
            el("span", { class: "name", text: seat.name }),
            el("span", { class: "pts", text: tr("points", { points: seat.points }) }),
          ),
        );
        if (index === 0) seats.append(el("span", { class: "vs", text: "vs" }));
      });
    }
    item.append(seats);
    const state = el("div", { class: "state" }, el("span", { class: "badge " + table.state, text: tr("state_" + table.state) }));
    if (table.result) state.append(el("span", { class: "result", text: resultText(table.result, table.seats) }));
    if (table.extension_minutes && table.ends_at && table.state !== "finished") {
      state.append(el("span", { class: "extra", text: tr("extended", { table: table.table, minutes: table.extension_minutes, time: clockTime(table.ends_at) }) }));
    }
    // The table's match room: one tap opens the voice channel in Discord (a link the
    // server made, to Discord only).
    if (table.room && new URL(table.room).hostname === "discord.com") {
      state.append(el("a", { class: "room", href: table.room, rel: "noopener noreferrer", text: tr("room") }));
    }
    item.append(state);
    return item;
  }

  // The name box is made once: a redraw while someone types keeps the box, its text and
  // the keyboard's composition (Japanese input) as they are.
  const filter = el("input", {
    id: "pm-filter",
    type: "search",
    placeholder: tr("filter_placeholder"),
    "aria-label": tr("filter"),
    autocomplete: "off",
    value: localStorage.getItem(nameKey) || "",
  });
  let filterApply = () => {};
  filter.addEventListener("input", () => filterApply());

  function drawPairings() {
    const o = parts.overview;
    const pairing = parts.pairings;
    const content = [];
    const clock = pairing && pairing.round !== o.current_round ? roundBox(o, pairing) : clockBox(o);
    if (clock) content.push(clock);
    if (!pairing) {
      content.push(el("p", { class: "note", text: tr("no_pairings") }));
      fill(...content);
      return;
    }
    const picker = el("select", { id: "pm-round", "aria-label": tr("choose_round") });
    for (const [number] of o.rounds) {
      const label = roundName(o, number);
      picker.append(el("option", { value: String(number), selected: number === pairing.round ? "selected" : null, text: label }));
    }
    picker.addEventListener("change", async () => {
      const chosen = Number(picker.value);
      pairingsRound = chosen === o.current_round ? null : chosen;
      await load("pairings");
      drawPairings();
    });
    const empty = el("p", { class: "note hidden", id: "pm-filter-none" });
    const list = el("ul", { class: "tables", id: "pm-tables" }, ...pairing.tables.map(tableItem));
    const apply = () => {
      const wanted = fold(filter.value.trim());
      let shown = 0;
      for (const item of list.children) {
        const hit = !wanted || item.dataset.names.includes(wanted);
        item.classList.toggle("hidden", !hit);
        if (hit) shown += 1;
      }
      empty.textContent = tr("filter_none", { text: filter.value.trim() });
      empty.classList.toggle("hidden", shown > 0 || !wanted);
      if (wanted) localStorage.setItem(nameKey, filter.value.trim());
      else localStorage.removeItem(nameKey);
    };
    filterApply = apply;
    content.push(el("div", { class: "controls" }, picker, el("label", { class: "filter" }, el("span", { text: tr("filter") }), filter)), empty, list);
    fill(...content);
    apply();
  }

  function pager(page, pages, go) {
    if (pages <= 1) return null;
    const previous = el("button", { type: "button", disabled: page <= 1 ? "disabled" : null, text: tr("previous") });
    const next = el("button", { type: "button", disabled: page >= pages ? "disabled" : null, text: tr("next") });
    previous.addEventListener("click", () => go(page - 1));
    next.addEventListener("click", () => go(page + 1));
    return el("div", { class: "pager" }, previous, el("span", { text: tr("page_of", { page: page, pages: pages }) }), next);
  }

  function topCutLabel(best) {
    if (!best) return "";
    if (best === 1) return tr("top_cut_winner");
    if (best === 2) return tr("top_cut_runner_up");
    return tr("top_cut_best", { best: best });
  }

  const standingCells = {
    col_rank: (row) => el("td", { class: "col_rank", text: String(row.rank) }),
    col_top_cut: (row) => el("td", { class: "col_top_cut", text: topCutLabel(row.top_cut) }),
    col_seed: (row) => el("td", { class: "col_seed", text: row.seed ? String(row.seed) : "" }),
    col_name: (row) => el("td", { class: "col_name" }, el("span", { text: row.name }), row.status !== "active" ? el("span", { class: "tag", text: tr(row.status) }) : null),
    col_points: (row) => el("td", { class: "col_points", text: String(row.points) }),
    col_opponents: (row) => el("td", { class: "col_opponents", text: formatPoints(row.opponents_points) }),
    col_record: (row) => el("td", { class: "col_record", text: row.record }),
  };

  function drawStandings() {
    const s = parts.standings;
    if (!s || !s.rows.length) {
      fill(el("p", { class: "note", text: tr("standings_none") }));
      return;
    }
    // Before any round has finished there are no ranks ("after round 0"): the entrants.
    const ranked = s.final || s.after_round > 0;
    const caption = s.final ? tr("standings_final") : ranked ? tr("standings_after", { round: s.after_round }) : tr("standings_no_round", { players: s.total });
    const withTopCut = s.rows.some((row) => row.top_cut);
    const withSeed = s.rows.some((row) => row.seed);
    const columns = ranked
      ? ["col_rank", withTopCut && "col_top_cut", withSeed && "col_seed", "col_name", "col_points", "col_opponents", "col_record"].filter(Boolean)
      : ["col_name"];
    const head = el("tr", {}, ...columns.map((key) => el("th", { scope: "col", class: key, text: tr(key) })));
    const rows = s.rows.map((row) => el("tr", { class: row.status }, ...columns.map((key) => standingCells[key](row))));
    const go = async (page) => {
      standingsPage = page;
      await load("standings");
      drawStandings();
    };
    const notes = [
      ranked && withTopCut ? el("p", { class: "note", text: tr("standings_top_cut_note") }) : null,
      ranked && withSeed ? el("p", { class: "note", text: tr("standings_seed_note") }) : null,
    ].filter(Boolean);
    fill(
      el("h2", { text: caption }),
      el("table", { class: "standings" }, el("thead", {}, head), el("tbody", {}, ...rows)),
      ...notes,
      pager(s.page, s.pages, go),
    );
  }

  function roundLabel(index, total) {
    const fromEnd = total - 1 - index;
    const names = ["bracket.final", "bracket.semifinal", "bracket.quarterfinal"];
    return fromEnd < names.length ? tr(names[fromEnd]) : tr("bracket.round", { round: index + 1 });
  }

  function drawBracket() {
    const b = parts.bracket;
    if (!b) {
      fill(el("p", { class: "note", text: tr("bracket_none") }));
      return;
    }
    const columns = b.rounds.map((matches, index) => {
      const column = el("section", { class: "bracket-round" }, el("h3", { text: roundLabel(index, b.rounds.length) }));
      for (const match of matches) {
        const box = el("div", { class: "match" + (match.double_loss ? " double" : "") });
        match.seats.forEach((seat, slot) => {
          const row = el("div", { class: "slot" + (match.winner === slot ? " won" : "") + (seat ? "" : " empty") });
          row.append(el("span", { class: "seed", text: seat && seat.seed ? String(seat.seed) : "" }), el("span", { class: "name", text: seat ? seat.name : tr("empty_slot") }));
          box.append(row);
        });
        if (match.result && match.result.kind !== "win") {
          box.append(el("div", { class: "note", text: resultText(match.result, match.seats) }));
        }
        column.append(box);
      }
      return column;
    });
    const final = b.rounds[b.rounds.length - 1][0];
    const content = [];
    if (final && final.winner !== null && final.seats[final.winner]) {
      content.push(el("p", { class: "champion" }, el("span", { text: tr("champion") }), el("strong", { text: final.seats[final.winner].name })));
    }
    content.push(el("div", { class: "bracket" }, ...columns));
    fill(...content);
  }

  function drawDecklists() {
    const d = parts.decklists;
    if (!d) {
      fill();
      return;
    }
    const items = d.decks.map((deck) =>
      el(
        "li",
        { class: "deck" },
        el("span", { class: "rank", text: deck.rank ? tr("deck_rank", { rank: deck.rank }) : "" }),
        el("a", { class: "name", href: link("/decklists/" + deck.number), text: deck.name }),
        el("span", { class: "titles", text: deck.titles.join(" / ") }),
      ),
    );
    const go = async (page) => {
      decksPage = page;
      await load("decklists");
      drawDecklists();
    };
    fill(el("h2", { text: tr("decks_title") + " · " + tr("decks_count", { count: d.total }) }), el("ul", { class: "decks" }, ...items), pager(d.page, d.pages, go));
  }

  function cardTable(cards) {
    const head = el("tr", {}, ...["col_title", "col_number", "col_card", "col_count"].map((key) => el("th", { scope: "col", text: tr(key) })));
    return el(
      "table",
      { class: "cards" },
      el("thead", {}, head),
      el("tbody", {}, ...cards.map((card) => el("tr", {}, el("td", { text: card.title }), el("td", { text: card.number }), el("td", { text: card.name }), el("td", { class: "count", text: String(card.count) })))),
    );
  }

  function drawDeck() {
    const deck = parts.deck;
    const content = [
      el("p", {}, el("a", { href: link("/decklists"), text: tr("deck_back") })),
      el("h2", { text: deck.name }),
      el("p", { class: "note", text: [deck.rank ? tr("deck_rank", { rank: deck.rank }) : "", deck.titles.join(" / "), tr("deck_cards", { total: deck.total }), tr("deck_fingerprint", { fingerprint: deck.fingerprint })].filter(Boolean).join(" · ") }),
      cardTable(deck.cards),
    ];
    if (deck.ex_cards.length) content.push(el("h3", { text: tr("deck_ex") }), cardTable(deck.ex_cards));
    fill(...content);
  }

  function drawTitles() {
    const d = parts.titles;
    if (!d) {
      fill();
      return;
    }
    const cut = parts.overview.top_cut || 8;
    const rows = d.titles.map((title) => {
      const bar = el("span", { class: "bar" });
      bar.style.width = 100 * title.share + "%"; // its share of the lists, as the text says
      const marks = el("span", { class: "marks" });
      for (const rank of title.placings.slice(0, 64)) {
        marks.append(el("span", { class: rank === 1 ? "mark first" : rank <= cut ? "mark cut" : "mark", title: String(rank), text: String(rank) }));
      }
      return el(
        "li",
        { class: "title-row" },
        el("span", { class: "title-name", text: title.title }),
        el("span", { class: "bar-box" }, bar),
        el("span", { class: "title-count", text: tr("titles_decks", { count: title.decks }) + " (" + Math.round(title.share * 100) + "%)" + (title.best ? " · " + tr("titles_best", { rank: title.best }) : "") }),
        marks,
      );
    });
    fill(el("h2", { text: tr("titles_title") }), el("p", { class: "note", text: tr("titles_note", { count: d.decks }) }), el("ul", { class: "chart" }, ...rows));
  }

  const drawers = {
    overview: drawOverview,
    pairings: drawPairings,
    standings: drawStandings,
    bracket: drawBracket,
    decklists: drawDecklists,
    titles: drawTitles,
    deck: drawDeck,
  };

  function draw() {
    drawNav();
    drawers[section]();
    drawLive();
    tick();
  }

  // -- moving between sections ------------------------------------------------------------
  // A tab is drawn in this page, not loaded as a new one: the page keeps its one event
  // stream, so tapping through the tabs never opens another (one address may keep only a
  // few open, and players behind one Wi-Fi or mobile address share them).

  function sectionAt(pathname) {
    if (pathname !== base && !pathname.startsWith(base + "/")) return null;
    const rest = pathname.slice(base.length).replace(/\/+$/, "");
    if (rest === "") return ["overview", null];
    const named = rest.match(/^\/(pairings|standings|bracket|decklists|titles)$/);
    if (named) return [named[1], null];
    const deck = rest.match(/^\/decklists\/([0-9]+)$/);
    return deck ? ["deck", Number(deck[1])] : null;
  }

  const langLink = document.getElementById("pm-lang");

  async function goTo(href, push) {
    const url = new URL(href, location.href);
    const found = url.origin === location.origin ? sectionAt(url.pathname) : null;
    if (!found) {
      location.assign(href);
      return;
    }
    const [next, number] = found;
    const before = [section, deckNumber];
    [section, deckNumber] = [next, number];
    pairingsRound = null;
    standingsPage = 1;
    decksPage = 1;
    try {
      for (const part of needed()) if (part !== "overview") await load(part);
    } catch (error) {
      [section, deckNumber] = before;
      location.assign(href); // the server answers it, whatever went wrong here
      return;
    }
    if (section === "deck" && !parts.deck) {
      location.assign(href); // no such list: the server's page says so
      return;
    }
    if (push) history.pushState(null, "", url.pathname + url.search);
    document.body.dataset.section = section;
    if (langLink) {
      const query = new URLSearchParams(url.search);
      query.set("lang", langLink.getAttribute("hreflang"));
      langLink.href = url.pathname + "?" + query.toString();
    }
    draw();
    window.scrollTo(0, 0);
  }

  document.addEventListener("click", (event) => {
    const anchor = event.target.closest && event.target.closest("a[href]");
    if (!anchor || anchor === langLink || anchor.target || event.defaultPrevented) return;
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const url = new URL(anchor.href, location.href);
    if (url.origin !== location.origin || !sectionAt(url.pathname)) return;
    event.preventDefault();
    busy = busy.then(() => goTo(anchor.href, true)).catch(() => {});
  });
  window.addEventListener("popstate", () => {
    busy = busy.then(() => goTo(location.href, false)).catch(() => {});
  });

  // -- staying current --------------------------------------------------------------------

  let busy = Promise.resolve();
  let latest = notice; // the newest version heard of
  let retrying = false;

  function heard(next) {
    if (next.now) skew = next.now - Date.now();
    if (next.version > latest.version) latest = next;
    busy = busy.then(() => update(latest)).catch(() => {
      // A part could not be fetched (the server busy, the network away): the page stays at
      // the version it has and tries again, so no update is lost in between.
      if (retrying) return;
      retrying = true;
      setTimeout(() => {
        retrying = false;
        heard(latest);
      }, 2000 + Math.random() * 1000);
    });
  }

  async function update(next) {
    if (next.version <= notice.version) return;
    const roundBefore = parts.overview.current_round;
    const changed = needed().filter((part) => next.stamps[part] !== notice.stamps[part]);
    for (const part of changed) await load(part);
    if (section === "pairings" && parts.overview.current_round !== roundBefore && pairingsRound === null && !changed.includes("pairings")) {
      await load("pairings");
    }
    notice = next; // only now: a part that failed to load is fetched again next time
    if (!parts.overview) {
      location.reload();
      return;
    }
    lastUpdate = new Date();
    draw();
    document.body.dataset.version = String(notice.version);
  }

  let poller = null;
  let stream = null;
  let streamAgain = null;

  function poll() {
    mode = "polling";
    drawLive();
    if (poller) return;
    poller = setInterval(async () => {
      try {
        const next = await fetchJson("/api/version.json");
        if (next === null) location.reload();
        else heard(next);
      } catch (error) {
        /* the next try may succeed */
      }
    }, 2000);
  }

  function stopPolling() {
    if (poller) clearInterval(poller);
    poller = null;
  }

  // One event stream for the page's life. Refused (the address has as many open as it may)
  // or lost, the page polls, and asks for a stream again a while later: a place frees as
  // soon as another reader behind the same address leaves.
  function listen() {
    if (!window.EventSource) {
      poll();
      return;
    }
    if (stream) return;
    const opened = new EventSource(link("/events"));
    stream = opened;
    let failures = 0;
    opened.addEventListener("version", (event) => {
      failures = 0;
      stopPolling();
      if (mode !== "live") {
        mode = "live";
        drawLive();
      }
      heard(JSON.parse(event.data));
    });
    opened.addEventListener("gone", () => location.reload());
    opened.addEventListener("error", () => {
      failures += 1;
      if (opened.readyState === EventSource.CLOSED || failures >= 3) {
        opened.close();
        if (stream === opened) stream = null;
        poll();
        clearTimeout(streamAgain);
        streamAgain = setTimeout(listen, 20000 + Math.random() * 20000);
      } else {
        mode = "reconnecting";
        drawLive();
      }
    });
  }

  // Leaving the page ends its stream at once, so the next page's stream has its place.
  window.addEventListener("pagehide", () => {
    clearTimeout(streamAgain);
    if (stream) stream.close();
    stream = null;
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) listen(); // back from the browser's page cache
  });

  document.body.dataset.version = String(notice.version);
  draw();
  setInterval(tick, 1000);
  // The overview shows your table when a name was remembered: fetch it once.
  if (section === "overview" && localStorage.getItem(nameKey) && !parts.pairings) {
    load("pairings").then(draw).catch(() => {});
  }
  listen();
})();
