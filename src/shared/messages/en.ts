/** The English catalog: the same keys as ro.ts (which documents the conventions), in English. */
import type { MessageKey } from "./ro";

export const en: Readonly<Record<MessageKey, string>> = {
  // app
  "app.lead": "Romanian company data, right in your Excel cells.",
  "app.loadFailed": "The settings could not be read: the add-in's storage is not responding. Reopen the pane.",
  "app.unexpected": "Something went wrong. Try again; if it happens again, reopen the pane.",

  // the flows (search, match, add columns): what the page shows before they load; the rest is in src/taskpane/flows/texts-en.ts
  "search.heading": "Find a company",
  "search.label": "Name, CUI or trade-registry number (J…)",
  "search.county": "County (optional)",
  "search.run": "Search",
  "columns.heading": "Add columns",
  "match.heading": "Match a column of names",
  "firmWatch.heading": "Companies the firm's server watches",
  "flows.loadFailed": "This part of the pane could not load. Reopen the pane.",

  // key
  "key.heading": "API key",
  "key.label": "The key the service gave you",
  "key.placeholder": "Paste your key here",
  "key.show": "Show",
  "key.hide": "Hide",
  "key.showLabel": "Show the key",
  "key.hideLabel": "Hide the key",
  "key.save": "Save",
  "key.test": "Test (1 credit)",
  "key.remove": "Remove",
  "key.get": "No key yet? Get one (opens in a new window)",
  "key.hint":
    "Testing makes one call to the service and costs 1 credit. It tests the key in the field or, if the field is empty, the saved key. The key is kept in the add-in's storage, never in the workbook.",
  "key.stateSaved": "An API key is saved.",
  "key.stateNone": "No API key saved: enter the key the service gave you.",
  "key.saved": "The key was saved.",
  "key.removed": "The key was removed.",
  "key.typeFirst": "Type the key in the field, then press Save.",
  "key.nothingToRemove": "There is no saved key.",
  "key.storageFailed": "The key could not be saved: the add-in's storage is not responding.",
  "key.recalc": "{cells} with errors are being recalculated with the new key (estimated cost: {credits}).",
  "key.recalcTooDear": "{cells} with errors would cost {credits}, more than the {left} left: use Refresh.",
  "key.testing": "Testing the key…",
  "key.testOk": "The key is valid. Plan: {plan}.",
  "key.testOkRemaining": "The key is valid. Plan: {plan}. Credits left: {remaining}.",
  "key.testPlanUnknown": "not stated by the service",
  "key.testNoKey": "There is no key to test: type the key in the field.",
  "key.testInvalid": "The key is NOT valid: the service refused it. Check that you copied all of it, without spaces, or ask for a new key.",
  "key.testExhausted": "The key is valid, but the plan's credits are used up for the current period.",
  "key.testNetwork": "The service cannot be reached at {url}. Check the address in Settings and your connection.",
  "key.testTimeout": "The service did not answer in time. Try again.",
  "key.testServer": "The service has a temporary problem. Try again later.",
  "key.testOther": "The test failed: the service answered unexpectedly.",

  // pane.firm: the pane with a personal token of a firm's FIRMA server (src/taskpane/pane/firm.ts)
  "pane.firm.keyLabel": "The key from the service, or your personal token from your firm",
  "pane.firm.test": "Test (no credit)",
  "pane.firm.tokenLabel": "Your personal token from your firm",
  "pane.firm.keyHint":
    "If your firm runs its own FIRMA server, paste here the personal token (firma_…) your administrator gave you: the firm's key stays on the server, and testing the token costs no credit.",
  "pane.firm.connected": "Connected to your firm's server as {name}.",
  "pane.firm.refused": "Your firm's server refuses the saved token: it was revoked or is unknown. Ask your administrator for a new one.",
  "pane.firm.unreachable": "Personal token saved; your firm's server does not answer right now.",
  "pane.firm.testOk":
    "The token is valid: connected to your firm's server as {name}. Left of your monthly budget: {remaining} of {budget}.",
  "pane.firm.testRefused": "Your firm's server refuses this token: it was revoked or is unknown. Ask your administrator for a new one.",
  "pane.firm.who": "Your figures on your firm's server: {name}, {month}.",
  "pane.firm.budgetLabel": "Your budget this month",
  "pane.firm.budget": "Monthly budget",
  "pane.firm.spent": "Spent this month",
  "pane.firm.remaining": "Left of your budget",
  "pane.firm.warn80": "You have used {pct}% of your monthly budget.",
  "pane.firm.warn100":
    "Your monthly budget is spent: requests that would cost credits are refused until next month or until your administrator raises it. Values already fetched stay.",
  "pane.firm.stale": "Your firm's server does not answer right now; these are the last figures it gave.",
  "pane.firm.usageNote":
    "These figures are your firm's server's: what you spent this month, from any computer. Answers your firm already has cost nothing.",

  // usage
  "usage.heading": "Plan and usage",
  "usage.plan": "Plan",
  "usage.planAuto": "Automatic (from the service)",
  "usage.detected": "The service reports the {plan} plan.",
  "usage.notDetected": "The service has not reported the plan yet: choose it from the list to see its limits.",

  // plan
  "plan.free": "Free — 10 calls a day",
  "plan.pro": "Pro — 4,000 credits a month",
  "plan.business": "Business — 20,000 credits a month",
  "plan.enterprise": "Enterprise — no limit",

  // usage
  "usage.today": "Today",
  "usage.month": "This month",
  "usage.ofLimit": "{used} of {limit}",
  "usage.noLimit": "{used} · no limit",
  "usage.freeMonth": "{used} · the Free plan has a daily limit only",
  "usage.chartLabel": "Credits per day this month: at most {max} in a day, today {today}.",
  "usage.chartEmpty": "No credits used this month.",
  "usage.left": "Credits left",
  "usage.serviceRemaining": "Left, as the service says",
  "usage.cacheHits": "Answers from the cache (no credits)",
  "usage.savedByBatching": "Credits saved by batching",
  "usage.refused": "Refused calls (not charged)",
  "usage.unlimited": "unlimited",
  "usage.unknown": "unknown: choose your plan",
  "usage.cacheSize": "Answers kept in the cache",
  "usage.cacheSizeValue": "{entries} ({size})",
  "usage.stop": "Credits spent; FIRMA sends nothing until {until} (Romanian time). Values already fetched stay.",
  "usage.stopFirmBudget":
    "Your monthly budget on the firm's server is spent; FIRMA sends nothing until {until} (Romanian time). Ask its administrator for more. Values already fetched stay.",
  "usage.stopFirmDay":
    "The firm's server reached its daily credit cap; FIRMA sends nothing until {until} (Romanian time). Values already fetched stay.",
  "usage.stopRetry": "Retry now",
  "usage.stopCleared": "FIRMA sends requests again. If the service says again that no credits are left, the stop comes back.",

  // guard
  "guard.held": "{cells} would cost at most {credits}, more than the limit of {limit} for one calculation. Nothing was spent on them.",
  "guard.fill": "Fill them",
  "guard.dismiss": "Dismiss",
  "guard.filling": "Filling the cells the limit held…",
  "guard.filled": "The FIRMA cells were recalculated. Credits spent: {spent}.",
  "guard.filledErrors": "{cells} still show errors.",
  "guard.dismissed": "The held cells keep their message; you can fill them any time with Refresh.",

  // cache
  "cache.full": "The cache is full: {evicted} were dropped from it (the least recently used). They will cost credits when asked for again.",
  "cache.writeFailed": "The cache could not be saved: answers are kept only until Excel closes, then they will cost credits again.",
  "cache.readTimeout":
    "The saved cache did not answer in time: some kept answers were not read and will be asked for again (with credits).",
  "cache.readFailed": "The saved cache could not be read: the kept answers will be asked for again (with credits).",
  "cache.idb.unavailable":
    "The add-in's large storage (IndexedDB) cannot be used ({reason}): only the most recent answers are kept (8 MB, OfficeRuntime.storage); the others will cost credits after reopening.",
  "cache.idb.writeFailed":
    "The add-in's large storage (IndexedDB) no longer accepts writes ({reason}): until reopening only the most recent answers are kept (8 MB, OfficeRuntime.storage).",
  "cache.idb.quota":
    "The browser gives the add-in's large storage (IndexedDB) no more room (free: {free}): only the most recent answers are kept (8 MB, OfficeRuntime.storage); the others will cost credits after reopening.",
  "cache.idb.corrupt":
    "{shards} of the add-in's large storage (IndexedDB) could not be read: their answers come from OfficeRuntime.storage or are fetched again (with credits).",

  // usage
  "usage.note": "Counted by FIRMA on this computer for the saved key; the service keeps the official count.",
  "usage.warn80.day":
    "You have used {pct}% of the daily limit. At 100%, cells that need new data show #N/A until midnight (Romanian time).",
  "usage.warn80.month":
    "You have used {pct}% of this month's credits. At 100%, cells that need new data show #N/A until the start of next month.",
  "usage.warn100.day":
    "The daily limit is reached: cells that need new data show #N/A until midnight (Romanian time). Values already fetched stay.",
  "usage.warn100.month":
    "This month's credits are used up: cells that need new data show #N/A until the start of next month. Values already fetched stay.",

  // refresh
  "refresh.heading": "Refresh",
  "refresh.excelOnly": "Refresh and freeze need Excel. Open FIRMA from Excel to use them; the key and usage can be managed here too.",
  "refresh.unsupported":
    "Refreshing from the pane needs {set}, which this Excel lacks; the FIRMA functions in cells still work. Update Office to use it.",
  "refresh.noDependents":
    "This Excel cannot recalculate from here the cells that depend on FIRMA cells (ExcelApi 1.15 is missing): if one lags behind, press Ctrl+Alt+F9 (no credits: the data is cached).",

  // the watch on what changed: the list after a refresh, and the sheet it can be written to
  "changes.heading": "What changed",
  "changes.none": "No change of status, VAT, name or address among the companies refreshed.",
  "changes.some": "This refresh found {changes} among the companies watched:",
  "changes.more": "… and {changes} more. Write the list to a new sheet to see them all.",
  "changes.write": "Write to a new sheet",
  "changes.written": "The list was written to the new sheet “{sheet}”.",
  "changes.writeFailed": "The sheet of changes could not be written ({reason}). Try again.",
  "changes.sheetName": "FIRMA changes",
  "changes.col.cui": "CUI",
  "changes.col.company": "Company",
  "changes.col.field": "Field",
  "changes.col.before": "Before",
  "changes.col.after": "After",
  "changes.col.beforeDate": "Old value as of",
  "changes.col.afterDate": "Found on",
  "changes.field.status": "Status",
  "changes.field.vat": "VAT registered",
  "changes.field.name": "Name",
  "changes.field.address": "Address",
  "changes.field.county": "County",
  "changes.field.caen": "Main CAEN code",
  "changes.field.registry": "Trade-registry no.",
  "changes.field.financialYear": "Latest financial year published",
  "changes.yes": "yes",
  "changes.no": "no",

  "refresh.intro": "Fetches the data from the service again. The cost is shown before anything is spent.",
  "refresh.scope": "What to refresh",
  "refresh.scopeAll": "All FIRMA cells in the workbook",
  "refresh.scopeSelection": "The selected cells only",
  "refresh.estimate": "Estimate the cost",
  "refresh.run": "Refresh",
  "refresh.scanning": "Looking for FIRMA formulas…",
  "refresh.estimateTitle": "Estimated cost",

  // est
  "est.formulas": "FIRMA formulas",
  "est.cuis": "Distinct CUIs",
  "est.batches": "Calls (batches)",
  "est.credits": "Credits to spend",
  "est.left": "Credits left",
  "est.invalid": "With an invalid CUI or year (no cost): {cells}.",
  "est.unestimable": "Not estimated (arguments computed by other formulas), but recalculated too: {formulas}.",
  "est.age": "Data in this workbook: oldest fetched {oldest}, newest {newest} (Romania's time). Refreshing fetches them again.",
  "est.ageNone": "Data in this workbook: nothing cached yet.",
  "est.lists": "Lists (CAUTA, TOP, TOPURI, JUDETE) left as cached: {formulas}. Choose “All FIRMA cells” to fetch them again.",
  "est.noneAll": "The workbook has no FIRMA formulas.",
  "est.noneSelection": "The selection has no FIRMA formulas.",

  // refresh
  "refresh.confirm":
    "The estimated cost ({credits}) is more than the credits left ({left}). Cells the credits do not cover will show #N/A. Go on?",
  "refresh.confirmAtMost":
    "The estimated cost (at most {credits}) is more than the credits left ({left}). Cells the credits do not cover will show #N/A. Go on?",

  // est
  "est.atMost": "at most {credits}",
  "est.atMostNote": "At most: how the service batches requests is not known yet; the refresh will not spend more than this.",
  "est.range": "{low} if the service answers every field, at most {high}",
  "est.rangeNote":
    "How the service answers batched requests is not known yet: the refresh sends one call first (1 credit, within the budget), then knows the exact cost of the rest; it never spends past the upper figure.",
  "refresh.confirmRange":
    "The estimated cost ({low} if the service answers every field, at most {credits}) is more than the credits left ({left}). Cells the credits do not cover will show #N/A. Go on?",
  "refresh.probed": "The first call ({probe}) showed the exact cost: the rest costs {credits}.",
  "refresh.stoppedAfterProbe": "The refresh stopped after the first call ({probe}); the other cells keep their values.",
  "refresh.probedConfirm":
    "The first call ({probe}) showed the exact cost: the rest costs {credits}, more than the credits left ({left}). Cells the credits do not cover will show #N/A. Go on?",

  // refresh
  "refresh.confirmYes": "Refresh anyway",
  "refresh.confirmNo": "Cancel",
  "refresh.cancelled": "Refresh cancelled; nothing was spent.",
  "refresh.progressLabel": "Refresh progress",
  "refresh.progress": "Refreshing… Formulas done: {done} of {total}. Credits spent: {spent}.",
  "refresh.done": "Done. Formulas refreshed: {formulas}. Credits spent: {spent} (estimated: {credits}).",
  "refresh.uncertain":
    "The figure includes {calls} without an answer (a broken connection, a timeout or a service error): the service may not have charged that much.",
  "refresh.doneErrors": "{cells} show errors; hover over them for details.",
  "refresh.stillBusy": "Excel is still recalculating {cells}; the usage above updates by itself.",
  "refresh.allFailed":
    "The refresh FAILED: {cause}. No value was fetched again; the cells keep their previous values. Credits spent: {spent}.",
  "refresh.partial":
    "Partly refreshed: {ok} of {wanted} fetched again; {failed} not ({cause}), their cells keep their previous values. Credits spent: {spent} (estimated: {credits}).",
  "refresh.budgetLeft":
    "{failed} did not fit in the confirmed budget of {credits}; nothing more was spent. Press “Continue the refresh” to see what the rest costs.",
  "refresh.continue": "Continue the refresh",
  "refresh.continueConfirm": "{cells} are still to fetch, at a cost of {credits}. Go on?",
  "refresh.continueNothing": "Nothing is left to fetch.",

  // cause
  "cause.network": "the service cannot be reached",
  "cause.timeout": "the service did not answer in time",
  "cause.server": "the service has a problem (server error)",
  "cause.creditsExhausted": "the plan's credits are spent",
  "cause.firmBudget": "your monthly budget on the firm's server is spent",
  "cause.firmDayLimit": "the firm's server reached its daily credit cap",
  "cause.budgetReached": "the confirmed budget was reached",
  "cause.invalidKey": "the service refused the API key",
  "cause.missingKey": "the API key is missing",
  "cause.rateLimited": "the service asked for a pause (too many requests)",
  "cause.budgetNoAnswer": "the attempts the confirmed budget allowed got no good answer (the service seems to be failing)",
  "cause.other": "the service answered with an error",

  // refresh
  "refresh.failed": "The workbook could not be read or recalculated ({code}). Try again.",

  // freeze
  "freeze.heading": "Freeze to values",
  "freeze.intro":
    "Replaces the FIRMA formulas of the selection with their values, so you can share the workbook with people who have no key.",
  "freeze.run": "Freeze the selection",
  "freeze.confirm": "Replace the FIRMA formulas of the selection with their values? This cannot be undone.",
  "freeze.yes": "Yes, freeze",
  "freeze.no": "Cancel",
  "freeze.unsupported": "Freezing needs {set}, which this Excel lacks. Update Office to use it.",
  "freeze.done": "Replaced with their values: {formulas}.",
  "freeze.none": "The selection has no FIRMA formulas.",
  "freeze.busy": "Some cells of the selection are still calculating: wait until they finish, then try again.",
  "freeze.cancelled": "Nothing was changed.",
  "freeze.cardsNote":
    "This Excel cannot write cards back (it lacks ExcelApi 1.16): the FIRMA.FISA cards of the selection will become their text, the company's name.",
  "freeze.cardsTurnedText": "Cards turned into text: {cards}.",
  "freeze.partial": "Frozen: {formulas}; {left} kept their formulas because Excel refused the write ({code}). Try again for the rest.",

  // settings
  "settings.heading": "Settings",
  "settings.baseUrl": "Service address",
  "settings.baseUrlHint": "Default: {url}. https is required, except for local addresses (127.0.0.1, localhost).",
  "settings.language": "Language",
  "settings.langAuto": "Same as Office (now: {lang})",
  "settings.langRo": "Română",
  "settings.langEn": "English",

  // lang
  "lang.ro": "Romanian",
  "lang.en": "English",

  // settings
  "settings.window": "Batch window (ms)",
  "settings.windowHint":
    "How long FIRMA waits for other cells to ask for them together: 0–5000, default 40. Applies from the next calculation.",
  "settings.guard": "Credit limit for one calculation",
  "settings.linkedRefresh": "Refresh linked companies when FIRMA starts (not when the workbook opens)",
  "settings.guardHint":
    "When Excel recalculates cells (a paste, a fill-down, opening the workbook) that would cost more than this many credits, FIRMA holds them and asks you here. A whole number ≥ 0; default 100; empty = no limit.",
  "settings.advanced": "Advanced",
  "settings.advancedHint": "For troubleshooting and the test service; the defaults suit most users.",
  "settings.badGuard": "The credit limit for one calculation must be a whole number ≥ 0 (or empty, for no limit).",
  "settings.save": "Save settings",
  "settings.linkedFailed": "The settings were saved, but Excel refused the Company data type ({code}: {message}).",
  "settings.saved": "The settings were saved.",
  "settings.badUrl": "Invalid address: use https://… (http only for 127.0.0.1 or localhost).",
  "settings.badWindow": "The batch window must be a whole number from 0 to 5000.",
  "settings.failed": "The settings could not be saved.",

  // help
  "help.heading": "Help: the FIRMA functions",
  "help.intro":
    "A CUI may be written with or without RO; instead of one CUI you may give a range of cells, and the result has the same shape. Arguments in [ ] may be left out. Names are those of an English Excel and examples use “,” between arguments; if your Excel uses “;” (e.g. Romanian regional settings), type “;”.",
  "help.syntax": "Syntax",
  "help.example": "Example",

  // noun
  "noun.credit": "credit|credits",
  "noun.cell": "cell|cells",
  "noun.answer": "answer|answers",
  "noun.firmaFormula": "FIRMA formula|FIRMA formulas",
  "noun.formula": "formula|formulas",
  "noun.call": "call|calls",

  // cell
  "noun.change": "change|changes",
  "noun.company": "company|companies",
  "cell.invalidCui": "Invalid CUI (control digit or format). Check the code.",
  "cell.emptyCui": "CUI missing: the cell is empty; enter the company's tax ID.",
  "cell.invalidYear": "Invalid year: use a four-digit year from 1990 on, e.g. 2024.",
  "cell.invalidSlug": "Invalid ranking id: copy one from FIRMA.TOPURI.",
  "cell.invalidLimit": "Invalid limit: use a whole number from 1 to 1000.",
  "cell.invalidField":
    "Unknown field: use a valid name: denumire (name), stare (status), judet (county), localitate (locality), adresa (address), caen_principal, platitor_tva (vat), j_cod, cifra_afaceri (revenue), profit_net, active_totale (assets), datorii_totale (liabilities), numar_angajati (employees).",
  "cell.invalidArgument": "Invalid argument: see Help in the FIRMA pane.",
  "cell.yearOutsidePlan": "Year outside your plan's history; pick a more recent year.",
  "cell.planHistory": "Year outside your plan's history; pick a more recent year.",
  "cell.yearUnavailable": "No data for this year yet; leave the year empty for the latest one.",
  "cell.notFound": "Company not found (unknown CUI); check the code.",
  "cell.notFoundYear": "No financial data for this year; try another year (see FIRMA.ISTORIC).",
  "cell.notFoundRanking": "No such ranking: pick one from FIRMA.TOPURI.",
  "cell.invalidBaseUrl": "Service address refused: use an https address in the FIRMA pane.",
  "cell.missingKey": "API key missing: enter it in the FIRMA pane.",
  "cell.invalidKey": "Invalid API key: check it in the FIRMA pane.",
  "cell.creditsExhausted": "Credits used up for this period; see Usage in the pane.",
  "cell.firmBudget": "Your monthly budget on the firm's server is spent; ask its administrator for more, or wait for next month.",
  "cell.firmDayLimit": "The firm's server reached its daily credit cap; it resumes tomorrow, after midnight.",
  "cell.badRequest": "The service refused the request: check the arguments.",
  "cell.rateLimited": "The firm's server received too many requests from you at once; retry with Refresh in the pane in a few seconds.",
  "cell.unavailable": "Service unavailable; retry with Refresh in the pane.",
  "cell.timeout": "The service did not answer in time; retry with Refresh in the pane.",
  "cell.aborted": "Calculation cancelled.",
  "cell.budgetReached": "The refresh's credit budget is reached; raise it and retry.",
  "cell.guardHeld": "Held by the credit limit: confirm in the FIRMA pane to fill these cells.",
  "cell.preview": "Preview: press Enter to fetch the data.",
  "cell.notCached": "No answer was received for this cell; retry.",
  "cell.match.likely": "Likely {name} (CUI {cui}), not certain: check it and type the CUI.",
  "cell.match.ambiguous": "Ambiguous: {count} companies fit; add the county or the full name.",
  "cell.match.tooMany": "Too many companies fit (100 or more); add words of the name or the county.",
  "cell.match.notFound": "No company of that name; check the name.",
  "cell.match.otherCounty": "No company of that name in the county given ({count} in other counties); check the county.",
  "cell.match.emptyName": "The company's name is missing: the cell is empty.",
  "cell.match.badName": "Not a company name: “{input}”; type the company's name.",
  "cell.match.unknownCounty": "Unknown county: “{county}”; type its code (BC) or name (Bacău).",

  // header
  "header.profil": "CUI|Name|Status|County|Locality|Address|CAEN|VAT payer|Trade reg. no.",
  "header.financiar": "Year|Revenue|Net profit|Total assets|Total liabilities|Employees",
  "header.cauta": "CUI|Name|County|Locality|Status|CAEN|Trade reg. no.",
  "header.topuri": "Id|Title|Year|Category|Scope",
  "header.top": "Position|CUI|Name|Value|Change %",
  "header.judete": "Code|County|Active companies",

  // formula
  "formula.whole.function": "the function {name} cannot be computed without Excel",
  "formula.whole.intersection": "the formula uses the @ operator",
  "formula.whole.chained": "the arguments depend on too many chained FIRMA calls",
  "formula.reason.syntax": "the formula cannot be read",
  "formula.reason.unknownSheet": "the referenced sheet does not exist",

  // cell: the precise cause the engine found (EngineMessageKey in src/engine/local-errors.ts)
  "cell.inputError.cui": "The CUI cell holds the error {code}: fix that cell.",
  "cell.inputError.argument": "An argument of the function is the error {code}: fix the cell it comes from.",
  "cell.invalidCui.card": "The card “{input}” has no CUI: give the company's CUI or a FIRMA.FISA card.",
  "cell.invalidCui.dataType": "A {input} value is not a CUI: give the company's CUI (digits, RO prefix optional).",
  "cell.invalidCui.format": 'Invalid CUI ("{input}"): digits only, RO prefix optional. Check the code.',
  "cell.invalidCui.length": 'Invalid CUI ("{input}"): a CUI has 2 to 10 digits. Check the code.',
  "cell.invalidCui.control": 'Invalid CUI ("{input}"): the control digit does not match. Check the code.',
  "cell.invalidYear.input": 'Invalid year ("{input}"): use a four-digit year from 1990 on, e.g. 2024.',
  "cell.invalidYear.beforeEarliest": "Invalid year ({year}): the data starts in {earliest}; use a year from {earliest} on.",
  "cell.yearUnavailable.later": "No data for {year} yet (the latest year with data: {latest}); leave the year empty for the latest one.",
  "cell.yearOutsidePlan.plan":
    "{year} is outside your {plan} plan's history ({oldest}–{latest}); pick a more recent year or a larger plan.",

  // card: FIRMA.FISA's sections
  "card.identity": "Identity",
  "card.status": "Status",
  "card.address": "Registered office",
  "card.activity": "Activity",
  "card.finances": "Financials",
  "card.year": "Financial year",
  "cell.unreachableCrossOrigin":
    "The service could not be reached from the add-in: it is down, or it does not allow calls from the add-in's address (CORS). Check the address in the pane; if it is right, ask your administrator to serve FIRMA with firma serve.",
};
