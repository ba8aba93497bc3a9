/** The English catalog: the same keys as ro.ts (which documents the conventions), in English. */
import type { MessageKey } from "./ro";

export const en: Readonly<Record<MessageKey, string>> = {
  // app
  "app.lead": "Romanian company data, right in your Excel cells.",
  "app.loadFailed": "The settings could not be read: the add-in's storage is not responding. Reopen the pane.",
  "app.unexpected": "Something went wrong. Try again; if it happens again, reopen the pane.",

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
  "settings.guardHint":
    "When Excel recalculates cells (a paste, a fill-down, opening the workbook) that would cost more than this many credits, FIRMA holds them and asks you here. A whole number ≥ 0; default 100; empty = no limit.",
  "settings.advanced": "Advanced",
  "settings.advancedHint": "For troubleshooting and the test service; the defaults suit most users.",
  "settings.badGuard": "The credit limit for one calculation must be a whole number ≥ 0 (or empty, for no limit).",
  "settings.save": "Save settings",
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

  // fn
  "fn.DENUMIRE": "The company's name.",
  "fn.STARE": "The company's status (e.g. ACTIVA, RADIATA).",
  "fn.JUDET": "The county of the registered office.",
  "fn.LOCALITATE": "The locality of the registered office.",
  "fn.ADRESA": "The address of the registered office.",
  "fn.CAEN": "The main CAEN activity code (4 digits).",
  "fn.TVA": "TRUE when the company is a VAT payer.",
  "fn.NRREG": "The trade-registry number (J../../....).",
  "fn.CA": "Revenue in a year, in lei; by default the latest year available. Same as FIRMA.CIFRA_AFACERI.",
  "fn.CIFRA_AFACERI": "Revenue in a year, in lei; by default the latest year available.",
  "fn.PROFIT": "Net profit in a year, in lei (negative = loss).",
  "fn.ACTIVE": "Total assets in a year, in lei.",
  "fn.DATORII": "Total liabilities in a year, in lei.",
  "fn.ANGAJATI": "The number of employees in a year.",
  "fn.PROFIL": "All identification data in one row: CUI, name, status, county, locality, address, CAEN, VAT, trade-registry number.",
  "fn.FISA":
    "The company's card in one cell (an Excel data type): the name, and on the card identity, status, address, CAEN, VAT and the latest financial year; fields are read with a dot, e.g. =A2.Status.",
  "fn.ACTUALIZAT": "When the company's data was fetched from the service (an Excel date: format the cell as date and time).",
  "fn.CAMP":
    "Any field, by name: denumire, stare, judet, localitate, adresa, caen_principal, platitor_tva, j_cod, cifra_afaceri, profit_net, active_totale, datorii_totale, numar_angajati.",
  "fn.FINANCIAR": "All figures of a year in one row: year, revenue, net profit, assets, liabilities, employees.",
  "fn.ISTORIC": "A figure's history by year, latest first (year and value columns); revenue by default.",
  "fn.CAUTA": "Searches companies by name, CUI or registry number; the first row is a header.",
  "fn.TOPURI": "The rankings available; the first row is a header.",
  "fn.TOP": "One ranking: position, CUI, name, value, annual change %; the first row is a header.",
  "fn.JUDETE": "The counties with code and number of active companies; the first row is a header.",

  // noun
  "noun.credit": "credit|credits",
  "noun.cell": "cell|cells",
  "noun.answer": "answer|answers",
  "noun.firmaFormula": "FIRMA formula|FIRMA formulas",
  "noun.formula": "formula|formulas",
  "noun.call": "call|calls",

  // cell
  "noun.change": "change|changes",
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
  "cell.badRequest": "The service refused the request: check the arguments.",
  "cell.unavailable": "Service unavailable; retry with Refresh in the pane.",
  "cell.timeout": "The service did not answer in time; retry with Refresh in the pane.",
  "cell.aborted": "Calculation cancelled.",
  "cell.budgetReached": "The refresh's credit budget is reached; raise it and retry.",
  "cell.guardHeld": "Held by the credit limit: confirm in the FIRMA pane to fill these cells.",
  "cell.preview": "Preview: press Enter to fetch the data.",
  "cell.notCached": "No answer was received for this cell; retry.",

  // cli: firma --help, in the language of --lang or LANG
  "cli.help.program": "FIRMA: Romanian company data in Excel workbooks",
  "cli.help.refresh": "refresh the values of FIRMA formulas in an .xlsx, without Excel",
  "cli.help.book": "the workbook to refresh",
  "cli.help.key": "API key (default: FIRMA_API_KEY)",
  "cli.help.baseUrl": "service address (default: FIRMA_BASE_URL)",
  "cli.help.out": "output file (default: <name>.refreshed.xlsx beside it)",
  "cli.help.inPlace": "overwrite the input file",
  "cli.help.dryRun": "only estimate the cost: no calls, nothing written",
  "cli.help.maxCredits": "budget: no call past this many credits; the other cells keep their values",
  "cli.help.plan": "your plan, to check years at no cost",
  "cli.help.cacheDir": "the cache folder, with the file cache.sqlite (default {dir})",
  "cli.help.noCache": "no cache on disk",
  "cli.help.noProgress": "no progress bar",
  "cli.help.lang": "message language (default: from LANG)",
  "cli.help.valuesOnly": "FIRMA formulas replaced by their values (for LibreOffice, Google Sheets)",
  "cli.help.csv": "also write the sheet with FIRMA cells as CSV",
  "cli.help.changes": "write what changed (status, VAT, name, address) as CSV",
  "cli.help.force": "fetch cached answers again too (after the estimate)",
  "cli.help.maxAge": "answers older than this many days are fetched again",
  "cli.help.json": "print the outcome as one JSON object",
  "cli.help.verbose": "list the cells not refreshed",
  "cli.help.help": "show this help",
  "cli.help.badWhole": "a whole number ≥ 0",
  "cli.help.badPlan": "free, pro, business or enterprise",
  "cli.help.helpCommand": "show a command's help",
  "cli.help.example": "Example:\n  firma refresh book.xlsx --key KEY\n  firma refresh --help",
  "cli.help.examples":
    "Examples:\n  firma refresh book.xlsx --key KEY                   writes book.refreshed.xlsx beside it\n  firma refresh book.xlsx --dry-run                   only the estimate, no cost\n  firma refresh book.xlsx --in-place --max-credits 50 at most 50 credits\n  FIRMA_API_KEY=KEY firma refresh book.xlsx --json    the outcome as JSON",
  "cli.help.exitCodes":
    "Exit codes:\n  0  every FIRMA cell was refreshed\n  2  partial: some cells kept their previous values or cannot be computed\n  1  nothing done: bad arguments, unreadable or unwritable file, no FIRMA formula, no answer at all",

  // cli
  "cli.cause.budgetReached": "the credit budget was reached (--max-credits or the estimate); run again: what is cached costs nothing",
  "cli.cause.network": "the service cannot be reached; check --base-url / FIRMA_BASE_URL and the connection",
  "cli.cause.server": "service error (5xx); try again later",
  "cli.cause.timeout": "the service did not answer in time; try again later",
  "cli.cause.shape": "an unreadable answer from the service; try again",
  "cli.cause.creditsExhausted": "the plan's credits are spent; wait for the plan's reset or use another key (--key / FIRMA_API_KEY)",
  "cli.cause.missingKey": "the API key is missing: give --key or FIRMA_API_KEY",
  "cli.cause.invalidKey": "the API key was refused: check --key / FIRMA_API_KEY",
  "cli.cause.aborted": "stopped (Ctrl-C) before the answer",
  "cli.cause.notCached": "no answer for these cells; run again",

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
  "formula.reason.nested": "the FIRMA call is inside a larger formula",
  "formula.reason.function": "the argument contains a function",
  "formula.reason.expression": "the argument contains a calculation (operator)",
  "formula.reason.name": "the argument uses a defined name",
  "formula.reason.wholeColumnOrRow": "the argument is a whole column or row",
  "formula.reason.externalReference": "the argument refers to another workbook",
  "formula.reason.threeDReference": "the argument spans several sheets",
  "formula.reason.structuredReference": "the argument is a table reference",
  "formula.reason.spillReference": "the argument uses the # spill operator",
  "formula.reason.arrayConstant": "the array constant cannot be read",
  "formula.reason.unknownSheet": "the referenced sheet does not exist",
  "formula.reason.circular": "the argument refers to the formula's own cell (circular reference)",
  "formula.reason.rangeTooLarge": "the argument's range is too large",

  // cell: the precise cause the engine found (EngineMessageKey in src/engine/errors.ts)
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

  // cli: what firma refresh says
  "cli.noKey":
    "The API key is missing. Give it with --key or in FIRMA_API_KEY; a key is generated in your Company Data Service account after registration. To try without an account: npm run sandbox, then --key demo-pro --base-url http://127.0.0.1:3001",
  "cli.noUrl":
    "The service address is missing. Give it with --base-url or in FIRMA_BASE_URL (the Company Data Service API v4 address, https://…). To try locally: npm run sandbox and --base-url http://127.0.0.1:3001",
  "cli.sameFile": "The output file would be the input itself: use --in-place if that is what you want.",
  "cli.valuesInPlace":
    "--values-only writes a copy without formulas: it cannot be used with --in-place (the original's formulas would be lost).",
  "cli.unwritable": "Cannot write the result to {path} ({why}); nothing was spent. Choose another place with --out.",
  "cli.unreadable": "Cannot read {path}: {why}",
  "cli.noFormulas": "{path} holds no FIRMA formula: nothing to refresh.",
  "cli.nothingAnswered": "No answer from the service: the workbook was not written, its values are as they were.",
  "cli.estimate": "Estimate: {formulas} to compute, {cuis} distinct CUIs, {cached} cached, {invalid} invalid → {credits}.",
  "cli.estimateAtMost": "Estimate: {formulas} to compute, {cuis} distinct CUIs, {cached} cached, {invalid} invalid → at most {credits}.",
  "cli.estimateRange":
    "Estimate: {formulas} to compute, {cuis} distinct CUIs, {cached} cached, {invalid} invalid → at most {credits} ({low} if the service answers every field; the first call shows which).",
  "cli.probed": "  the first call ({probe}) showed what the service does: the rest, estimated exactly, {credits}.",
  "cli.probedAtMost": "  the first call ({probe}) showed what the service does: the rest, at most {credits}.",
  "cli.budget": "  the --max-credits {max} budget is below the estimate: at most {calls} are sent, the other cells keep their values.",
  "cli.dry": "Dry run (--dry-run): nothing was spent and nothing was written.",
  "cli.done": "FIRMA: {input} → {out}",
  "cli.changesNone": "  no change of status, VAT, name or address → {path}",
  "cli.changes": "  changes of status, VAT, name or address: {n} → {path}",
  "cli.found": "  FIRMA formulas: {n} (not computable: {skipped})",
  "cli.refreshed": "  refreshed: {cells} with values, {errors} with errors",
  "cli.kept": "  kept their previous value: {cells}",
  "cli.skipped": "  not computable (the formula cannot be evaluated without Excel): {formulas}",
  "cli.verboseHint": "  (--verbose lists the cells)",
  "cli.arrays":
    "  array results in a single cell (the formula is not saved as a dynamic array; only the top-left value was written): {cells}",
  "cli.credits": "  credits spent: {spent} (estimate {estimate}); answers from the cache: {hits}; time: {seconds} s",
  "cli.spill": "  results that do not fit (#SPILL!):",
  "cli.outcome.ok": "Done: every cell was refreshed.",
  "cli.outcome.partial": "Partial: some cells were not refreshed (see above).",
  "cli.outcome.nothing": "Nothing was done.",
  "cli.db.locked": "locked by another program: {detail}",
  "cli.db.notDatabase": "not a valid SQLite database: {detail}",
  "cli.db.cannotWrite": "cannot be opened for writing: {detail}",
  "cli.cacheStore":
    "The disk cache cannot be used: {path} ({reason}). Nothing was spent. Close the other program using it, delete the file, choose another folder with --cache-dir, or work without a cache with --no-cache.",
  "cli.cache.full": "The disk cache is full: {evicted} were dropped (the least recently used); they will cost credits when asked again.",
  "cli.cache.writeFailed": "The disk cache could not be saved: this run's answers will be asked again (with credits) next time.",
  "cli.cache.readTimeout": "The disk cache did not answer in time: some saved answers will be asked again (with credits).",
  "cli.cache.readFailed": "The disk cache could not be read: the saved answers will be asked again (with credits).",
  "cli.fs.enoent": "the folder or file does not exist",
  "cli.fs.enotdir": "part of the path is not a folder",
  "cli.fs.eacces": "permission denied",
  "cli.fs.eperm": "operation not permitted",
  "cli.fs.erofs": "the disk is read-only",
  "cli.fs.enospc": "the disk is full",
  "cli.fs.eisdir": "it is a folder",

  // xlsx: a workbook the CLI cannot read or write
  "xlsx.damaged": "The .xlsx file is damaged and cannot be read",
  "xlsx.encryptedOrXls":
    "The file is not a plain .xlsx: it is password-protected or in the old .xls format; open it in Excel and save it as .xlsx without a password",
  "xlsx.notZip": "The file is not an Excel .xlsx workbook (not a ZIP archive)",
  "xlsx.zip64": "The workbook uses the ZIP64 format (very large file), which this tool does not support",
  "xlsx.multiVolume": "Multi-volume ZIP archives are not supported",
  "xlsx.noContentTypes": "The file is a ZIP archive but not an Excel .xlsx workbook ([Content_Types].xml is missing)",
  "xlsx.missingPart": "The workbook has no part {part}",
  "xlsx.encryptedPart": "A part of the workbook is encrypted",
  "xlsx.compression": "Compression method {method} is not supported",
  "xlsx.utf16": "The part is UTF-16 encoded, which is not supported",
  "xlsx.tooLarge": "The resulting workbook would exceed 4 GiB (ZIP64 is not supported)",
  "xlsx.damagedPart": "The workbook part {part} is damaged",
  "xlsx.noMainPart": "The file is not an Excel workbook (the main part is missing)",
  "xlsx.notWorkbook": "The file is not an Excel .xlsx workbook (for example a Word document or a binary .xlsb workbook)",
  "xlsx.noSheet": 'Sheet "{name}" does not exist',
  "xlsx.notWorksheet": 'Sheet "{name}" is not a worksheet',

  // serve: firma serve (src/server)
  "serve.help.description": "FIRMA's add-in server: serves the built add-in and its manifest, and relays the API calls on the same origin.",
  "serve.help.host": "the address to listen on",
  "serve.help.port": "the port to listen on (0: any free one)",
  "serve.help.publicUrl": "the address users reach the add-in at (https://…/); the manifest gets it",
  "serve.help.upstream": "the data service the /v4 calls are relayed to (or FIRMA_UPSTREAM_URL)",
  "serve.help.sandbox": "also start the sandbox service in this process and relay to it",
  "serve.help.tlsCert": "the HTTPS certificate (PEM)",
  "serve.help.tlsKey": "the certificate's private key (PEM)",
  "serve.help.http": "plain HTTP, for a reverse proxy that does HTTPS in front",
  "serve.help.trustProxy": "trust the X-Forwarded-* headers of the proxy in front",
  "serve.help.dist": "the built add-in (npm run build)",
  "serve.help.lang": "the messages' language: ro or en",
  "serve.badPort": "the port “{value}” is not a number from 0 to 65535.",
  "serve.noDist": "there is no built add-in in {dir}: first run FIRMA_ADDIN_URL=https://… npm run build (docs/deploy.md).",
  "serve.tlsPair": "--tls-cert and --tls-key go together: give both.",
  "serve.httpAndTls": "--http does not go with --tls-cert/--tls-key: choose one.",
  "serve.badTls": "the file {file} cannot be read ({reason}).",
  "serve.noDevCert":
    "there is no development certificate (~/.office-addin-dev-certs): run npx office-addin-dev-certs install, or give --tls-cert and --tls-key, or --http behind a proxy.",
  "serve.badPublicUrl": "the public address {url} is not an https address (Office loads add-ins over https only).",
  "serve.sandboxAndUpstream": "--sandbox and --upstream exclude each other: choose one.",
  "serve.noUpstream":
    "warning: no data service is configured, so the /v4 calls get 502 until you start with --upstream https://… (or FIRMA_UPSTREAM_URL), or with --sandbox for a local trial.",
  "serve.badUpstream": "the service address {url} is not accepted: https, or http on this computer only.",
  "serve.upstreamUnreachable": "the service {url} cannot be reached ({reason}); check the address and the network.",
  "serve.httpWarning":
    "WARNING: plain HTTP on {host}, which is not this computer's own address: API keys travel unencrypted. Use --http only behind an HTTPS proxy.",
  "serve.noSandbox": "the sandbox is not available in this installation.",
  "serve.portInUse": "port {port} on {host} is already in use; choose another with --port.",
  "serve.portDenied": "port {port} on {host} needs administrator rights; choose one above 1024.",
  "serve.listenFailed": "the server could not start ({reason}).",
  "serve.listening": "FIRMA serves the add-in at {url}. The manifest: {manifest}. The /v4 calls go to {upstream}.",
  "serve.theSandbox": "the sandbox ({url})",

  // serve: the custody mode (src/server/firm/custody.ts); custody.*: what a person's add-in or CLI is answered
  "serve.help.keyFile":
    "custody mode: the file with the firm's API key, which stays on the server (or FIRMA_UPSTREAM_KEY); people use personal tokens",
  "serve.help.database": "the firm's database in custody mode: a SQLite file's path, or postgres://… (or DATABASE_URL)",
  "serve.help.maxCreditsPerDay": "at most this many credits a day at the service, for the whole firm (custody mode)",
  "serve.keyFileUnreadable": "the firm's key file {file} cannot be read ({reason}).",
  "serve.keyEmpty": "{source} holds no API key.",
  "serve.keyBad": "{source} does not hold an API key on one line of visible characters.",
  "serve.badMaxCredits": '--max-credits-per-day "{value}" is not a whole number ≥ 0.',
  "serve.custodyNeedsUpstream": "custody mode (--key-file) needs the service: give --upstream https://… or --sandbox.",
  "serve.custodyOnly": "--database and --max-credits-per-day go with custody mode only: give --key-file too (or FIRMA_UPSTREAM_KEY).",
  "serve.db.unknownScheme": 'the database "{database}" is not understood: give a SQLite file\'s path or a postgres://… address',
  "serve.db.unreachable": "the database {database} cannot be opened ({reason}).",
  "serve.db.readOnly": "the database {database} is read-only: the firm's server must write to it.",
  "serve.db.newerSchema": "the database {database} was written by a newer FIRMA; update FIRMA.",
  "serve.custodyOn":
    "Custody mode: the firm's key stays on this server; people use personal tokens (firma users add). Database: {database}.",
  "custody.tokenMissing": "The personal token is missing (the X-API-Key header): ask the firm's server administrator for one.",
  "custody.tokenFormat":
    "What was sent is not a personal token of the firm (firma_…): the firm's server takes the token the administrator gave you, not a service key.",
  "custody.tokenRefused": "The personal token is unknown or was revoked: ask the administrator for a new one.",
  "custody.budgetExhausted":
    "Your budget of {budget} credits a month is spent ({spent} in {month}): ask the administrator for a larger budget or wait for next month.",
  "custody.dayLimit": "The firm reached the server's cap of {limit} credits a day: it resumes tomorrow, after midnight.",
  "custody.planStopped": "The firm's plan credits are spent: the server asks the service nothing until {until}.",
  "custody.firmKeyRefused": "The service refused the firm's key: the server's administrator must check or replace it.",
  "custody.planHistory": "The year asked is beyond the firm's plan's financial history.",
  "custody.upstreamTimeout": "The service did not answer within {ms} ms.",
  "custody.upstreamUnreachable": "The firm's server cannot reach the service.",
  "custody.upstreamFailed": "The service answered with an error ({status}); try again.",
  "custody.upstreamShape": "The service's answer could not be read; try again.",
  "custody.upstreamNotConfigured": "The firm's server has no data service configured (--upstream).",
  "custody.storeUnavailable": "The firm's server's database does not answer; try again shortly.",
  "custody.serviceRefused": "The service refused the request ({status}).",
  "custody.internal": "The firm's server could not answer; try again.",
  "custody.notApiPath": "Not an API v4 path.",
  "custody.methodNotAllowed": "Only GET.",
  "custody.queryTooLong": "The query is over {max} bytes.",
  "custody.invalidCui": 'Invalid CUI: "{value}".',
  "custody.noCui": "The cui parameter is missing.",
  "custody.batchTooLarge": "At most {max} CUIs per request (got {count}).",
  "custody.badYear": "The {name} parameter must be a year from 1900 to 2100.",
  "custody.yearsBoth": "Give either an or an_de_la and an_pana, not both.",
  "custody.rangeHalf": "A range needs both an_de_la and an_pana.",
  "custody.rangeOrder": "an_de_la is after an_pana.",
  "custody.badInclude": "The include parameter: field names separated by commas.",
  "custody.notFound": "No company with CUI {cui}, or it has no such data.",
  "custody.listNotFound": "Not found.",
  "custody.healthFailed": "The database does not answer.",

  // users: firma users add|list|revoke (src/server/firm/users-command.ts); users.help.* and users.db.* serve firma audit too
  "users.help.description": "the firm's people and their personal tokens, in the database of the firm's server (firma serve)",
  "users.help.add": "add a person with a monthly budget and show their personal token, once",
  "users.help.list": "show each person: monthly budget, spent this month, last seen, whether revoked",
  "users.help.revoke": "revoke a person's token: it stops working at once, on every server of the firm",
  "users.help.name": "the person's name: letters, digits, dots, dashes or underscores, at most 64",
  "users.help.budget": "the credits a month the person may spend at the service (a whole number ≥ 0)",
  "users.help.database": "the firm's database: a SQLite file's path, or postgres://… (or DATABASE_URL)",
  "users.help.json": "the result as JSON, on standard output",
  "users.help.lang": "the messages' language: ro or en",
  "users.help.exitCodes":
    "Exit codes: 0 done; 1 the database, the person or the file did not allow it; 2 something typed wrong (nothing was written).",
  "users.db.unknownScheme": "the database “{database}” is not understood: give a SQLite file's path or a postgres://… address.",
  "users.db.unreachable": "the database {database} cannot be opened ({reason}); check the address, the server and the permissions.",
  "users.db.readOnly": "the database {database} is read-only: nothing was written.",
  "users.db.newerSchema": "the database {database} was written by a newer FIRMA; update FIRMA.",
  "users.noName": "the person's name is missing (for example: firma users add ana --budget 500).",
  "users.badName": "the name “{name}” is not accepted: 1–64 letters, digits, dots, dashes or underscores, no spaces.",
  "users.exists": "there is already a person named {name} (perhaps revoked): choose another name. Nothing was written.",
  "users.noBudget": "the monthly budget is missing: give --budget N (credits a month, a whole number ≥ 0).",
  "users.badBudget": "the budget “{value}” is not a whole number ≥ 0 of credits a month (for example --budget 500).",
  "users.added": "{name} was added, with a budget of {budget} a month.",
  "users.tokenOnce":
    "The personal token is shown only now, once: FIRMA keeps only its fingerprint and cannot show it again. Give it to the person; in the pane, it goes where the API key goes.",
  "users.none": "No people yet: add one with firma users add NAME --budget N.",
  "users.never": "never",
  "users.header": "Name|Monthly budget|Spent in {month}|Last seen|Revoked",
  "users.total": "People: {people}; spent together in {month}: {spent}.",
  "users.unknown": "there is no person named {name}.",
  "users.alreadyRevoked": "{name}'s token was already revoked.",
  "users.revoked": "{name}'s token was revoked: the next call with it gets 403.",

  // audit: firma audit (src/server/firm/audit-command.ts)
  "audit.help.description":
    "the trail of requests to the firm's server: when, who, what, the companies, where the answer came from, the credits",
  "audit.help.since": "from which day (YYYY-MM-DD, from midnight in Bucharest); by default, from the start of the month",
  "audit.help.user": "only one person's requests",
  "audit.help.csv": "also write the trail to a CSV file (the header in Romanian and English)",
  "audit.badDate": "the date “{value}” is not a calendar day in the form YYYY-MM-DD (for example --since 2026-11-01).",
  "audit.unwritable": "the file {file} cannot be written ({reason}); nothing was written.",
  "audit.csvWritten": "The trail ({requests}) was written to {file}.",
  "audit.header": "When|Who|Endpoint|Companies|Source|Credits|Status",
  "audit.more": "and {n} more",
  "audit.source.store": "the firm's store",
  "audit.source.upstream": "the service",
  "audit.source.refused": "refused",
  "audit.none": "No requests since {since}.",
  "audit.total": "Total since {since}: {requests}, of which {fromStore} from the firm's store; {credits} spent at the service.",
  "cell.unreachableCrossOrigin":
    "The service could not be reached from the add-in: it is down, or it does not allow calls from the add-in's address (CORS). Check the address in the pane; if it is right, ask your administrator to serve FIRMA with firma serve.",
};
