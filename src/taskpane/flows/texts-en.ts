/** What the pane's flows say, in English: the keys of texts-ro.ts (the conventions are its). */
import type { FlowKey } from "./texts-ro";

export const flowEn: Readonly<Record<FlowKey, string>> = {
  // search
  "search.hint":
    "A search is sent only on Enter or Search: 1 credit a page, nothing when the same search is cached. A CUI is checked here and the company's profile fetched.",
  "search.resultsLabel": "Search results",
  "search.cost.search": "Enter searches: 1 credit (a page of up to {limit} companies).",
  "search.cost.cached": "Enter searches: free, the search is cached.",
  "search.cost.cui": "A valid CUI: Enter fetches the company's profile, {credits}.",
  "search.cost.cuiCached": "A valid CUI: Enter shows the company's profile, free (cached).",
  "search.tooShort": "Type at least 2 characters: a name, a CUI or a registry number.",
  "search.badCui": "{input} is not a valid CUI (its check digit does not match). Nothing was sent.",
  "search.searching": "Searching…",
  "search.cuiNotFound": "No company has this CUI.",
  "search.none": "No company found. Try fewer words, or no county.",
  "search.found": "Results: {results}. Click a name to put its CUI in the active cell.",
  "search.foundMore": "First results: {results}. Click a name to put its CUI in the active cell; More fetches up to 100 (1 credit).",
  "search.more": "More (1 credit)",
  "search.pickLabel": "Pick {name} to insert",
  "search.insertLabel": "Put CUI {cui} ({name}) in the active cell",
  "search.insertPicked": "Insert picked ({n}) down from the active cell",
  "search.inserted": "The CUIs were put in {cells}, down from the active cell.",
  "search.insertedCards": "FIRMA.FISA cards were put in {cells}, down from the active cell.",

  // add columns
  "columns.intro":
    "Select a column of CUIs (or cards, or matched names with their CUI column beside them), tick what you want, then Add columns. The columns go to the right of the selection, under a header row.",
  "columns.items": "What to add (* per year)",
  "columns.item.card": "Company card (FISA)",
  "columns.item.fetched": "Fetched on",
  "columns.years": "Years of the financial figures",
  "columns.yearFrom": "From year",
  "columns.yearTo": "To year",
  "columns.yearsHint": "Blank: the latest year available. A range adds one column per year, latest first.",
  "columns.mode": "Write as",
  "columns.modeFormulas": "FIRMA formulas (they refresh)",
  "columns.modeValues": "Fixed values (the card stays a formula only)",
  "columns.readFirst": "Select the column of CUIs and press Read the selection.",
  "columns.tickSome": "Tick at least one column.",
  "columns.badYears": "Years must be between 1990 and 2100, 20 years at most.",
  "columns.noCuis": "The selection holds no valid CUI. For a column of names, use Match a column of names.",
  "columns.source": "{address}: rows {rows}, valid CUIs {valid}.",
  "columns.cost": "Columns × rows: {columns} × {rows}. Cost: {credits}, what the same formulas typed by hand would cost.",
  "columns.costAtMost":
    "Columns × rows: {columns} × {rows}. Cost: between {low} and {credits}, what the same formulas typed by hand would cost.",
  "columns.fetching": "Fetching the data (at most {credits})…",
  "columns.doneFormulas": "Formula columns added: {columns} × {rows} rows. Cost: {credits}.",
  "columns.doneValues": "Fixed-value columns added: {columns} × {rows} rows. Cost: {credits}.",
  "columns.errors": "{cells} show an error (a wrong CUI or a company not found): point at the cell for its message.",
  "linked.heading": "Linked companies (the Company data type)",
  "linked.intro":
    "Turns the CUIs, FISA cards or matched CUIs of the selection into linked companies: Excel shows the card, =A2.Name reads a field, Data → Refresh All refreshes them, and the values stay in the workbook even without FIRMA.",
  "linked.convert": "Make linked companies",
  "linked.yes": "Convert",
  "linked.fisa": "Use FIRMA.FISA formulas",
  "linked.confirm":
    "{cells} become linked companies (the CUI is replaced by the company). Cost: at most {credits}, what the same FISA cells would cost.",
  "linked.done": "{cells} turned into linked companies. Cost: {credits}.",
  "linked.otherEdition":
    "Linked companies come with FIRMA's Company data type edition (manifest-legate.xml), which your administrator installs; this FIRMA is the usual edition. Use FIRMA.FISA formulas instead.",
  "linked.registerFailed":
    "Excel did not register the Company data type ({code}: {message}), so nothing was spent or written. Use FIRMA.FISA formulas instead.",
  "linked.unsupported":
    "This Excel has no linked data types for add-ins (they need Excel desktop with ExcelApi 1.19; Excel on the web has none). Use FIRMA.FISA formulas instead.",
  "columns.noHeader": "The selection starts on the first row: there was no room for a header.",

  // match a column of names
  "match.intro":
    "Select a column of names (and, optionally, the column of counties to its right). The CUI, the official name and how sure the match is are written beside them; only sure matches get a CUI.",
  "match.go": "Match",
  "match.progressLabel": "Matching the names",
  "match.numbers": "The selection holds numbers, not names. For a column of CUIs, use Add columns.",
  "match.noNames": "The selection holds no name.",
  "match.estimate":
    "Names: {names}; distinct searches: {distinct} (cached, free: {cached}); with a problem, free: {invalid}. Cost: between {min} and {credits}.",
  "match.estimateExact":
    "Names: {names}; distinct searches: {distinct} (cached, free: {cached}); with a problem, free: {invalid}. Cost: {credits}.",
  "match.overGuard": "Matching may cost up to {credits}, over your limit of {limit} for one calculation. Continue?",
  "match.cancelled": "Nothing was searched.",
  "match.running": "Searching the names…",
  "match.col.cui": "CUI",
  "match.col.name": "Official name",
  "match.col.confidence": "Match",
  "match.word.sure": "sure",
  "match.word.likely": "likely",
  "match.word.ambiguous": "ambiguous",
  "match.word.notFound": "not found",
  "match.word.notSearched": "not searched",
  "match.word.chosen": "chosen",
  "match.stop.budget": "the confirmed budget was reached",
  "match.stop.quota": "the plan's credits are spent",
  "match.stop.guard": "the credit limit for one calculation",
  "match.stop.plan": "the plan does not allow search",
  "match.stop.key": "the API key is missing or invalid",
  "match.stop.service": "the service did not answer",
  "match.stop.aborted": "stopped",
  "match.problem.empty": "empty cell",
  "match.problem.notText": "not text",
  "match.problem.tooShort": "too short",
  "match.problem.onlyLegalForm": "only a legal form",
  "match.problem.unknownCounty": "unknown county: {detail}",
  "match.done":
    "Done. Sure: {sure}; likely: {likely}; ambiguous: {ambiguous}; not found: {notFound}; not searched: {notSearched}. Cost: {credits}.",
  "match.chooseHeading": "To choose",
  "match.chooseSummary": "Rows waiting for a choice: {rows} (the first {listed} below). Click a company to write its CUI and name.",
  "match.rowName": "Row {row}: {name} ({word})",
  "match.candidatesFor": "Possible companies for {name}",
  "match.chosen": "Row {row}: {name}, CUI {cui}.",

  // shared by the flows
  "flow.readSelection": "Read the selection",
  "flow.excelOnly": "This works in Excel only.",
  "flow.unsupported": "This Excel lacks {set}, which this needs; the FIRMA functions in cells work.",
  "flow.overwrite": "{cells} where FIRMA would write are not empty. Replace them?",
  "flow.replace": "Replace",
  "flow.keep": "No, keep them",
  "flow.continue": "Yes, continue",
  "flow.stop": "No",
  "flow.notWritten": "Nothing was written.",
  "flow.writeFailed": "Writing to the workbook failed ({code}). The cells are as they were, or written in part.",
  "flow.tooDear": "It would cost {credits}, more than the {left} left. Select fewer rows.",
  "flow.problem.severalAreas": "The selection has several areas. Select one continuous column.",
  "flow.problem.protected":
    "The sheet is protected: FIRMA cannot write to it. Unprotect the sheet (Review › Unprotect Sheet) and try again.",
  "flow.problem.hiddenRows":
    "The selection has hidden rows (by a filter or by hand). FIRMA does not work on rows you cannot see: it would write on them too. Show all rows and select again.",
  "flow.problem.table":
    "The selection, or the columns to its right where FIRMA would write, are in an Excel table. FIRMA does not write into tables: convert the table to a range (Table Design › Convert to Range) or copy the data to a plain range.",
  "flow.problem.tooWide": "The selection has too many columns (at most {max}).",
  "flow.problem.empty": "The selection is empty.",
  "flow.problem.noRoom": "There is no room to the right of the selection for the new columns.",
  "flow.problem.tooMany": "Too many rows (at most {max}). For large workbooks use firma refresh.",
};
