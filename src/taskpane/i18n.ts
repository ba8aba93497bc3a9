/**
 * Every text of the task pane, Romanian first and English second, in one table. The page's HTML
 * carries only keys (`data-i18n`, `data-i18n-placeholder`, `data-i18n-aria-label`); `applyTexts`
 * fills them, and the pane's code asks `t()` for the rest. Numbers follow the language's format.
 * No text here ever includes the API key; `{name}` placeholders are filled by `t()`.
 */
import type { Language } from "../shared/settings";

export type Lang = Language;

/** key → [Romanian, English] */
export const STRINGS = {
  // header
  "app.lead": ["Date despre firmele din România, direct în celulele Excel.", "Romanian company data, right in your Excel cells."],
  "app.loadFailed": [
    "Setările nu au putut fi citite: spațiul de stocare al add-in-ului nu răspunde. Redeschideți panoul.",
    "The settings could not be read: the add-in's storage is not responding. Reopen the pane.",
  ],

  "app.unexpected": [
    "Ceva nu a mers cum trebuia. Încercați din nou; dacă se repetă, redeschideți panoul.",
    "Something went wrong. Try again; if it happens again, reopen the pane.",
  ],

  // key
  "key.heading": ["Cheia API", "API key"],
  "key.label": ["Cheia primită de la serviciu", "The key the service gave you"],
  "key.placeholder": ["Lipiți cheia aici", "Paste your key here"],
  "key.show": ["Arată", "Show"],
  "key.hide": ["Ascunde", "Hide"],
  "key.showLabel": ["Arată cheia", "Show the key"],
  "key.hideLabel": ["Ascunde cheia", "Hide the key"],
  "key.save": ["Salvează", "Save"],
  "key.test": ["Testează (1 credit)", "Test (1 credit)"],
  "key.remove": ["Șterge", "Remove"],
  "key.hint": [
    "Testarea face un apel la serviciu și costă 1 credit. Se testează cheia din câmp sau, dacă e gol, cheia salvată. Cheia se păstrează în spațiul add-in-ului, niciodată în registru.",
    "Testing makes one call to the service and costs 1 credit. It tests the key in the field or, if the field is empty, the saved key. The key is kept in the add-in's storage, never in the workbook.",
  ],
  "key.stateSaved": ["O cheie API este salvată.", "An API key is saved."],
  "key.stateNone": [
    "Nicio cheie API salvată: introduceți cheia primită de la serviciu.",
    "No API key saved: enter the key the service gave you.",
  ],
  "key.saved": ["Cheia a fost salvată.", "The key was saved."],
  "key.removed": ["Cheia a fost ștearsă.", "The key was removed."],
  "key.typeFirst": ["Introduceți cheia în câmp, apoi apăsați Salvează.", "Type the key in the field, then press Save."],
  "key.nothingToRemove": ["Nu există nicio cheie salvată.", "There is no saved key."],
  "key.storageFailed": [
    "Cheia nu a putut fi salvată: spațiul de stocare al add-in-ului nu răspunde.",
    "The key could not be saved: the add-in's storage is not responding.",
  ],
  "key.recalc": [
    "{cells} cu erori se recalculează cu noua cheie (cost estimat: {credits}).",
    "{cells} with errors are being recalculated with the new key (estimated cost: {credits}).",
  ],
  "key.recalcTooDear": [
    "{cells} cu erori ar costa {credits}, mai mult decât cele {left} rămase: folosiți Actualizare.",
    "{cells} with errors would cost {credits}, more than the {left} left: use Refresh.",
  ],
  "key.testing": ["Se testează cheia…", "Testing the key…"],
  "key.testOk": ["Cheia este validă. Plan: {plan}.", "The key is valid. Plan: {plan}."],
  "key.testOkRemaining": [
    "Cheia este validă. Plan: {plan}. Credite rămase: {remaining}.",
    "The key is valid. Plan: {plan}. Credits left: {remaining}.",
  ],
  "key.testPlanUnknown": ["nespecificat de serviciu", "not stated by the service"],
  "key.testNoKey": ["Nu există nicio cheie de testat: introduceți cheia în câmp.", "There is no key to test: type the key in the field."],
  "key.testInvalid": [
    "Cheia NU este validă: serviciul a refuzat-o. Verificați că ați copiat-o întreagă, fără spații, sau cereți o cheie nouă.",
    "The key is NOT valid: the service refused it. Check that you copied all of it, without spaces, or ask for a new key.",
  ],
  "key.testExhausted": [
    "Cheia este validă, dar creditele planului s-au terminat pentru perioada curentă.",
    "The key is valid, but the plan's credits are used up for the current period.",
  ],
  "key.testNetwork": [
    "Serviciul nu poate fi contactat la {url}. Verificați adresa din Setări și conexiunea.",
    "The service cannot be reached at {url}. Check the address in Settings and your connection.",
  ],
  "key.testTimeout": ["Serviciul nu a răspuns la timp. Încercați din nou.", "The service did not answer in time. Try again."],
  "key.testServer": ["Serviciul are o problemă temporară. Încercați mai târziu.", "The service has a temporary problem. Try again later."],
  "key.testOther": ["Testul nu a reușit: serviciul a răspuns neașteptat.", "The test failed: the service answered unexpectedly."],

  // plan and usage
  "usage.heading": ["Plan și consum", "Plan and usage"],
  "usage.plan": ["Planul", "Plan"],
  "usage.planAuto": ["Automat (după serviciu)", "Automatic (from the service)"],
  "usage.detected": ["Serviciul raportează planul {plan}.", "The service reports the {plan} plan."],
  "usage.notDetected": [
    "Serviciul nu a raportat încă planul: alegeți-l din listă ca să vedeți limitele.",
    "The service has not reported the plan yet: choose it from the list to see its limits.",
  ],
  "plan.free": ["Free — 10 apeluri pe zi", "Free — 10 calls a day"],
  "plan.pro": ["Pro — 4.000 de credite pe lună", "Pro — 4,000 credits a month"],
  "plan.business": ["Business — 20.000 de credite pe lună", "Business — 20,000 credits a month"],
  "plan.enterprise": ["Enterprise — fără limită", "Enterprise — no limit"],
  "usage.today": ["Azi", "Today"],
  "usage.month": ["Luna aceasta", "This month"],
  "usage.ofLimit": ["{used} din {limit}", "{used} of {limit}"],
  "usage.noLimit": ["{used} · fără limită", "{used} · no limit"],
  "usage.freeMonth": ["{used} · planul Free are doar limită zilnică", "{used} · the Free plan has a daily limit only"],
  "usage.chartLabel": [
    "Credite pe zi în luna aceasta: cel mult {max} într-o zi, azi {today}.",
    "Credits per day this month: at most {max} in a day, today {today}.",
  ],
  "usage.chartEmpty": ["Niciun credit folosit luna aceasta.", "No credits used this month."],
  "usage.left": ["Credite rămase", "Credits left"],
  "usage.serviceRemaining": ["Rămase, după serviciu", "Left, as the service says"],
  "usage.cacheHits": ["Răspunsuri din cache (fără credite)", "Answers from the cache (no credits)"],
  "usage.savedByBatching": ["Credite economisite prin grupare", "Credits saved by batching"],
  "usage.refused": ["Apeluri refuzate (nu costă)", "Refused calls (not charged)"],
  "usage.unlimited": ["nelimitat", "unlimited"],
  "usage.unknown": ["necunoscut: alegeți planul", "unknown: choose your plan"],
  "usage.cacheSize": ["Răspunsuri păstrate în cache", "Answers kept in the cache"],
  "usage.cacheSizeValue": ["{entries} ({size})", "{entries} ({size})"],
  "usage.stop": [
    "Creditele s-au epuizat; FIRMA nu mai trimite cereri până la {until} (ora României). Valorile deja aduse rămân.",
    "Credits spent; FIRMA sends nothing until {until} (Romanian time). Values already fetched stay.",
  ],
  "usage.stopRetry": ["Reîncearcă acum", "Retry now"],
  "usage.stopCleared": [
    "FIRMA trimite din nou cereri. Dacă serviciul spune iar că nu mai sunt credite, oprirea revine.",
    "FIRMA sends requests again. If the service says again that no credits are left, the stop comes back.",
  ],
  "guard.held": [
    "{cells} ar costa cel mult {credits}, peste limita de {limit} pentru un calcul. Nu s-a cheltuit nimic pentru ele.",
    "{cells} would cost at most {credits}, more than the limit of {limit} for one calculation. Nothing was spent on them.",
  ],
  "guard.fill": ["Completează", "Fill them"],
  "guard.dismiss": ["Renunță", "Dismiss"],
  "guard.filling": ["Se completează celulele oprite de limită…", "Filling the cells the limit held…"],
  "guard.filled": [
    "Celulele FIRMA au fost recalculate. Credite cheltuite: {spent}.",
    "The FIRMA cells were recalculated. Credits spent: {spent}.",
  ],
  "guard.filledErrors": ["{cells} afișează încă erori.", "{cells} still show errors."],
  "guard.dismissed": [
    "Celulele oprite rămân cu mesajul lor; le puteți completa oricând cu Actualizare.",
    "The held cells keep their message; you can fill them any time with Refresh.",
  ],
  "cache.full": [
    "Cache-ul este plin: {evicted} au fost scoase din el (cele nefolosite de cel mai mult timp). Când vor fi cerute din nou, vor costa credite.",
    "The cache is full: {evicted} were dropped from it (the least recently used). They will cost credits when asked for again.",
  ],
  "cache.write_failed": [
    "Cache-ul nu a putut fi salvat: răspunsurile se păstrează doar până la închiderea Excel, apoi vor costa din nou credite.",
    "The cache could not be saved: answers are kept only until Excel closes, then they will cost credits again.",
  ],
  "cache.read_timeout": [
    "Cache-ul salvat nu a răspuns la timp: unele răspunsuri păstrate nu au fost citite și se vor cere din nou (cu credite).",
    "The saved cache did not answer in time: some kept answers were not read and will be asked for again (with credits).",
  ],
  "cache.read_failed": [
    "Cache-ul salvat nu a putut fi citit: răspunsurile păstrate se vor cere din nou (cu credite).",
    "The saved cache could not be read: the kept answers will be asked for again (with credits).",
  ],
  "noun.answer": ["răspuns|răspunsuri", "answer|answers"],
  "usage.note": [
    "Numărate de FIRMA pe acest calculator, pentru cheia salvată; contorul oficial este al serviciului.",
    "Counted by FIRMA on this computer for the saved key; the service keeps the official count.",
  ],
  "usage.warn80.day": [
    "Ați folosit {pct}% din limita zilnică. La 100%, celulele care cer date noi afișează #N/A până la miezul nopții (ora României).",
    "You have used {pct}% of the daily limit. At 100%, cells that need new data show #N/A until midnight (Romanian time).",
  ],
  "usage.warn80.month": [
    "Ați folosit {pct}% din creditele lunii. La 100%, celulele care cer date noi afișează #N/A până la începutul lunii viitoare.",
    "You have used {pct}% of this month's credits. At 100%, cells that need new data show #N/A until the start of next month.",
  ],
  "usage.warn100.day": [
    "Limita zilnică este atinsă: celulele care cer date noi afișează #N/A până la miezul nopții (ora României). Valorile deja aduse rămân.",
    "The daily limit is reached: cells that need new data show #N/A until midnight (Romanian time). Values already fetched stay.",
  ],
  "usage.warn100.month": [
    "Creditele lunii s-au terminat: celulele care cer date noi afișează #N/A până la începutul lunii viitoare. Valorile deja aduse rămân.",
    "This month's credits are used up: cells that need new data show #N/A until the start of next month. Values already fetched stay.",
  ],

  // refresh
  "refresh.heading": ["Actualizare", "Refresh"],
  "refresh.excelOnly": [
    "Actualizarea și înghețarea valorilor funcționează numai în Excel. Deschideți FIRMA din Excel pentru ele; cheia și consumul se pot gestiona și aici.",
    "Refresh and freeze need Excel. Open FIRMA from Excel to use them; the key and usage can be managed here too.",
  ],
  "refresh.unsupported": [
    "Actualizarea din panou are nevoie de {set}, pe care acest Excel nu îl are; funcțiile FIRMA din celule merg în continuare. Actualizați Office pentru ea.",
    "Refreshing from the pane needs {set}, which this Excel lacks; the FIRMA functions in cells still work. Update Office to use it.",
  ],
  "refresh.noDependents": [
    "Acest Excel nu poate recalcula de aici celulele care depind de cele FIRMA (lipsește ExcelApi 1.15): dacă vreuna a rămas în urmă, apăsați Ctrl+Alt+F9 (fără credite: datele sunt în cache).",
    "This Excel cannot recalculate from here the cells that depend on FIRMA cells (ExcelApi 1.15 is missing): if one lags behind, press Ctrl+Alt+F9 (no credits: the data is cached).",
  ],
  "refresh.intro": [
    "Aduce din nou datele de la serviciu. Costul se arată înainte de orice cheltuială.",
    "Fetches the data from the service again. The cost is shown before anything is spent.",
  ],
  "refresh.scope": ["Ce se actualizează", "What to refresh"],
  "refresh.scopeAll": ["Toate celulele FIRMA din registru", "All FIRMA cells in the workbook"],
  "refresh.scopeSelection": ["Doar celulele selectate", "The selected cells only"],
  "refresh.estimate": ["Estimează costul", "Estimate the cost"],
  "refresh.run": ["Actualizează", "Refresh"],
  "refresh.scanning": ["Se caută formulele FIRMA…", "Looking for FIRMA formulas…"],
  "refresh.estimateTitle": ["Cost estimat", "Estimated cost"],
  "est.formulas": ["Formule FIRMA", "FIRMA formulas"],
  "est.cuis": ["CUI-uri distincte", "Distinct CUIs"],
  "est.batches": ["Apeluri (loturi)", "Calls (batches)"],
  "est.credits": ["Credite de cheltuit", "Credits to spend"],
  "est.left": ["Credite rămase", "Credits left"],
  "est.invalid": ["Cu CUI sau an invalid (fără cost): {cells}.", "With an invalid CUI or year (no cost): {cells}."],
  "est.unestimable": [
    "Fără estimare (argumente calculate de alte formule), dar recalculate și ele: {formulas}.",
    "Not estimated (arguments computed by other formulas), but recalculated too: {formulas}.",
  ],
  "est.age": [
    "Datele din registru: cele mai vechi aduse la {oldest}, cele mai noi la {newest} (ora României). Actualizarea le aduce din nou.",
    "Data in this workbook: oldest fetched {oldest}, newest {newest} (Romania's time). Refreshing fetches them again.",
  ],
  "est.ageNone": ["Datele din registru: nimic în cache încă.", "Data in this workbook: nothing cached yet."],
  "est.lists": [
    "Liste (CAUTA, TOP, TOPURI, JUDETE) lăsate cum sunt în cache: {formulas}. Alegeți „Toate celulele FIRMA” ca să le aduceți din nou.",
    "Lists (CAUTA, TOP, TOPURI, JUDETE) left as cached: {formulas}. Choose “All FIRMA cells” to fetch them again.",
  ],
  "est.noneAll": ["Registrul nu conține formule FIRMA.", "The workbook has no FIRMA formulas."],
  "est.noneSelection": ["Selecția nu conține formule FIRMA.", "The selection has no FIRMA formulas."],
  "refresh.confirm": [
    "Costul estimat ({credits}) depășește creditele rămase ({left}). Celulele pentru care nu ajung creditele vor afișa #N/A. Continuați?",
    "The estimated cost ({credits}) is more than the credits left ({left}). Cells the credits do not cover will show #N/A. Go on?",
  ],
  "refresh.confirmAtMost": [
    "Costul estimat (cel mult {credits}) depășește creditele rămase ({left}). Celulele pentru care nu ajung creditele vor afișa #N/A. Continuați?",
    "The estimated cost (at most {credits}) is more than the credits left ({left}). Cells the credits do not cover will show #N/A. Go on?",
  ],
  "est.atMost": ["cel mult {credits}", "at most {credits}"],
  "est.atMostNote": [
    "Cel mult: felul în care serviciul grupează cererile nu e încă știut; actualizarea nu va cheltui mai mult de atât.",
    "At most: how the service batches requests is not known yet; the refresh will not spend more than this.",
  ],
  "refresh.confirmYes": ["Actualizează oricum", "Refresh anyway"],
  "refresh.confirmNo": ["Anulează", "Cancel"],
  "refresh.cancelled": ["Actualizarea a fost anulată; nu s-a cheltuit nimic.", "Refresh cancelled; nothing was spent."],
  "refresh.progressLabel": ["Progresul actualizării", "Refresh progress"],
  "refresh.progress": [
    "Se actualizează… Formule gata: {done} din {total}. Credite cheltuite: {spent}.",
    "Refreshing… Formulas done: {done} of {total}. Credits spent: {spent}.",
  ],
  "refresh.done": [
    "Gata. Formule actualizate: {formulas}. Credite cheltuite: {spent} (estimat: {credits}).",
    "Done. Formulas refreshed: {formulas}. Credits spent: {spent} (estimated: {credits}).",
  ],
  "refresh.doneErrors": [
    "{cells} afișează erori; treceți cu mouse-ul peste ele pentru detalii.",
    "{cells} show errors; hover over them for details.",
  ],
  "refresh.stillBusy": [
    "Excel încă recalculează {cells}; consumul de mai sus se actualizează singur.",
    "Excel is still recalculating {cells}; the usage above updates by itself.",
  ],
  "refresh.allFailed": [
    "Actualizarea NU a reușit: {cause}. Nicio valoare nu a fost adusă din nou; celulele își păstrează valorile anterioare. Credite cheltuite: {spent}.",
    "The refresh FAILED: {cause}. No value was fetched again; the cells keep their previous values. Credits spent: {spent}.",
  ],
  "refresh.partial": [
    "Actualizare parțială: {ok} din {wanted} aduse din nou; {failed} nu ({cause}), celulele lor își păstrează valorile anterioare. Credite cheltuite: {spent} (estimat: {credits}).",
    "Partly refreshed: {ok} of {wanted} fetched again; {failed} not ({cause}), their cells keep their previous values. Credits spent: {spent} (estimated: {credits}).",
  ],
  "refresh.budgetLeft": [
    "{failed} nu au încăput în bugetul confirmat de {credits}; nu s-a cheltuit mai mult. Apăsați „Continuă actualizarea” ca să vedeți cât costă restul.",
    "{failed} did not fit in the confirmed budget of {credits}; nothing more was spent. Press “Continue the refresh” to see what the rest costs.",
  ],
  "refresh.continue": ["Continuă actualizarea", "Continue the refresh"],
  "refresh.continueConfirm": [
    "Mai sunt {cells} de adus, cu un cost de {credits}. Continuați?",
    "{cells} are still to fetch, at a cost of {credits}. Go on?",
  ],
  "refresh.continueNothing": ["Nu a mai rămas nimic de adus.", "Nothing is left to fetch."],
  "cause.network": ["serviciul nu poate fi contactat", "the service cannot be reached"],
  "cause.timeout": ["serviciul nu a răspuns la timp", "the service did not answer in time"],
  "cause.server": ["serviciul are o problemă (eroare de server)", "the service has a problem (server error)"],
  "cause.credits_exhausted": ["creditele planului s-au epuizat", "the plan's credits are spent"],
  "cause.budget_reached": ["bugetul confirmat s-a atins", "the confirmed budget was reached"],
  "cause.invalid_key": ["serviciul a refuzat cheia API", "the service refused the API key"],
  "cause.missing_key": ["lipsește cheia API", "the API key is missing"],
  "cause.rate_limited": ["serviciul a cerut o pauză (prea multe cereri)", "the service asked for a pause (too many requests)"],
  "cause.budgetNoAnswer": [
    "încercările permise de bugetul confirmat nu au primit un răspuns bun (serviciul pare să aibă probleme)",
    "the attempts the confirmed budget allowed got no good answer (the service seems to be failing)",
  ],
  "cause.other": ["serviciul a răspuns cu o eroare", "the service answered with an error"],
  "refresh.failed": [
    "Registrul nu a putut fi citit sau recalculat ({code}). Încercați din nou.",
    "The workbook could not be read or recalculated ({code}). Try again.",
  ],

  // freeze
  "freeze.heading": ["Înghețare la valori", "Freeze to values"],
  "freeze.intro": [
    "Înlocuiește formulele FIRMA din selecție cu valorile lor, ca să puteți trimite registrul cuiva care nu are cheie.",
    "Replaces the FIRMA formulas of the selection with their values, so you can share the workbook with people who have no key.",
  ],
  "freeze.run": ["Îngheață selecția", "Freeze the selection"],
  "freeze.confirm": [
    "Înlocuiți formulele FIRMA din selecție cu valorile lor? Operația nu se poate anula.",
    "Replace the FIRMA formulas of the selection with their values? This cannot be undone.",
  ],
  "freeze.yes": ["Da, îngheață", "Yes, freeze"],
  "freeze.no": ["Anulează", "Cancel"],
  "freeze.unsupported": [
    "Înghețarea are nevoie de {set}, pe care acest Excel nu îl are. Actualizați Office pentru ea.",
    "Freezing needs {set}, which this Excel lacks. Update Office to use it.",
  ],
  "freeze.done": ["Înlocuite cu valorile lor: {formulas}.", "Replaced with their values: {formulas}."],
  "freeze.none": ["Selecția nu conține formule FIRMA.", "The selection has no FIRMA formulas."],
  "freeze.busy": [
    "Unele celule din selecție încă se calculează: așteptați să se termine, apoi încercați din nou.",
    "Some cells of the selection are still calculating: wait until they finish, then try again.",
  ],
  "freeze.cancelled": ["Nimic nu a fost schimbat.", "Nothing was changed."],

  // settings
  "settings.heading": ["Setări", "Settings"],
  "settings.baseUrl": ["Adresa serviciului", "Service address"],
  "settings.baseUrlHint": [
    "Implicit: {url}. Este necesar https, cu excepția adreselor locale (127.0.0.1, localhost).",
    "Default: {url}. https is required, except for local addresses (127.0.0.1, localhost).",
  ],
  "settings.language": ["Limba", "Language"],
  "settings.langAuto": ["Ca Office (acum: {lang})", "Same as Office (now: {lang})"],
  "settings.langRo": ["Română", "Română"],
  "settings.langEn": ["English", "English"],
  "lang.ro": ["română", "Romanian"],
  "lang.en": ["engleză", "English"],
  "settings.window": ["Fereastra de grupare (ms)", "Batch window (ms)"],
  "settings.windowHint": [
    "Cât așteaptă FIRMA alte celule ca să le ceară împreună: 0–5000, implicit 40. Se aplică la următoarea pornire a add-in-ului.",
    "How long FIRMA waits for other cells to ask for them together: 0–5000, default 40. Applies the next time the add-in starts.",
  ],
  "settings.guard": ["Limită de credite pentru un calcul", "Credit limit for one calculation"],
  "settings.guardHint": [
    "Când Excel recalculează celule (lipire, copiere în jos, deschiderea registrului) care ar costa mai mult de atâtea credite, FIRMA le oprește și vă întreabă aici. Număr întreg ≥ 0; implicit 100; gol = fără limită.",
    "When Excel recalculates cells (a paste, a fill-down, opening the workbook) that would cost more than this many credits, FIRMA holds them and asks you here. A whole number ≥ 0; default 100; empty = no limit.",
  ],
  "settings.badGuard": [
    "Limita de credite pentru un calcul trebuie să fie un număr întreg ≥ 0 (sau gol, fără limită).",
    "The credit limit for one calculation must be a whole number ≥ 0 (or empty, for no limit).",
  ],
  "settings.save": ["Salvează setările", "Save settings"],
  "settings.saved": ["Setările au fost salvate.", "The settings were saved."],
  "settings.badUrl": [
    "Adresă invalidă: folosiți https://… (http doar pentru 127.0.0.1 sau localhost).",
    "Invalid address: use https://… (http only for 127.0.0.1 or localhost).",
  ],
  "settings.badWindow": [
    "Fereastra de grupare trebuie să fie un număr întreg între 0 și 5000.",
    "The batch window must be a whole number from 0 to 5000.",
  ],
  "settings.failed": ["Setările nu au putut fi salvate.", "The settings could not be saved."],

  // help
  "help.heading": ["Ajutor: funcțiile FIRMA", "Help: the FIRMA functions"],
  "help.intro": [
    "CUI-ul se scrie cu sau fără RO; în locul unui CUI puteți da un domeniu de celule, iar rezultatul are aceeași formă. Argumentele între [ ] se pot omite. Exemplele folosesc „;” între argumente, ca Excel-ul cu setări regionale românești; dacă Excel-ul dvs. folosește „,”, scrieți „,”.",
    "A CUI may be written with or without RO; instead of one CUI you may give a range of cells, and the result has the same shape. Arguments in [ ] may be left out. Names are those of an English Excel and examples use “,” between arguments; if your Excel uses “;” (e.g. Romanian regional settings), type “;”.",
  ],
  "help.syntax": ["Sintaxă", "Syntax"],
  "help.example": ["Exemplu", "Example"],
  "fn.DENUMIRE": ["Denumirea firmei.", "The company's name."],
  "fn.STARE": ["Starea firmei (de ex. ACTIVA, RADIATA).", "The company's status (e.g. ACTIVA, RADIATA)."],
  "fn.JUDET": ["Județul sediului social.", "The county of the registered office."],
  "fn.LOCALITATE": ["Localitatea sediului social.", "The locality of the registered office."],
  "fn.ADRESA": ["Adresa sediului social.", "The address of the registered office."],
  "fn.CAEN": ["Codul CAEN principal (4 cifre).", "The main CAEN activity code (4 digits)."],
  "fn.TVA": ["ADEVĂRAT dacă firma este plătitoare de TVA.", "TRUE when the company is a VAT payer."],
  "fn.NRREG": ["Numărul de la Registrul Comerțului (J../../....).", "The trade-registry number (J../../....)."],
  "fn.CA": [
    "Cifra de afaceri într-un an, în lei; implicit ultimul an disponibil. Același lucru ca FIRMA.CIFRA_AFACERI.",
    "Revenue in a year, in lei; by default the latest year available. Same as FIRMA.CIFRA_AFACERI.",
  ],
  "fn.CIFRA_AFACERI": [
    "Cifra de afaceri într-un an, în lei; implicit ultimul an disponibil.",
    "Revenue in a year, in lei; by default the latest year available.",
  ],
  "fn.PROFIT": ["Profitul net într-un an, în lei (negativ = pierdere).", "Net profit in a year, in lei (negative = loss)."],
  "fn.ACTIVE": ["Activele totale într-un an, în lei.", "Total assets in a year, in lei."],
  "fn.DATORII": ["Datoriile totale într-un an, în lei.", "Total liabilities in a year, in lei."],
  "fn.ANGAJATI": ["Numărul de angajați într-un an.", "The number of employees in a year."],
  "fn.PROFIL": [
    "Toate datele de identificare pe un rând: CUI, denumire, stare, județ, localitate, adresă, CAEN, TVA, nr. reg. com.",
    "All identification data in one row: CUI, name, status, county, locality, address, CAEN, VAT, trade-registry number.",
  ],
  "fn.FISA": [
    "Fișa firmei într-o singură celulă (tip de date Excel): denumirea, iar pe card identitatea, starea, adresa, CAEN, TVA și ultimul an financiar; câmpurile se citesc cu punct, de ex. =A2.Stare.",
    "The company's card in one cell (an Excel data type): the name, and on the card identity, status, address, CAEN, VAT and the latest financial year; fields are read with a dot, e.g. =A2.Status.",
  ],
  "fn.ACTUALIZAT": [
    "Când au fost aduse datele firmei de la serviciu (dată Excel: formatați celula ca dată și oră).",
    "When the company's data was fetched from the service (an Excel date: format the cell as date and time).",
  ],
  "fn.CAMP": [
    "Un câmp oarecare, după nume: denumire, stare, judet, localitate, adresa, caen_principal, platitor_tva, j_cod, cifra_afaceri, profit_net, active_totale, datorii_totale, numar_angajati.",
    "Any field, by name: denumire, stare, judet, localitate, adresa, caen_principal, platitor_tva, j_cod, cifra_afaceri, profit_net, active_totale, datorii_totale, numar_angajati.",
  ],
  "fn.FINANCIAR": [
    "Toți indicatorii unui an pe un rând: an, cifra de afaceri, profit net, active, datorii, angajați.",
    "All figures of a year in one row: year, revenue, net profit, assets, liabilities, employees.",
  ],
  "fn.ISTORIC": [
    "Istoricul unui indicator pe ani, cel mai recent primul (coloanele an și valoare); implicit cifra de afaceri.",
    "A figure's history by year, latest first (year and value columns); revenue by default.",
  ],
  "fn.CAUTA": [
    "Caută firme după nume, CUI sau nr. de registru; primul rând este antetul.",
    "Searches companies by name, CUI or registry number; the first row is a header.",
  ],
  "fn.TOPURI": ["Lista topurilor disponibile; primul rând este antetul.", "The rankings available; the first row is a header."],
  "fn.TOP": [
    "Un top: poziție, CUI, denumire, valoare, variație anuală %; primul rând este antetul.",
    "One ranking: position, CUI, name, value, annual change %; the first row is a header.",
  ],
  "fn.JUDETE": [
    "Județele, cu codul și numărul de firme active; primul rând este antetul.",
    "The counties with code and number of active companies; the first row is a header.",
  ],

  // plural nouns: singular, plural (Romanian adds "de" from 20 on)
  "noun.credit": ["credit|credite", "credit|credits"],
  "noun.cell": ["celulă|celule", "cell|cells"],
  "noun.formula": ["formulă FIRMA|formule FIRMA", "FIRMA formula|FIRMA formulas"],
} as const satisfies Record<string, readonly [string, string]>;

export type TextKey = keyof typeof STRINGS;

export function isTextKey(key: string): key is TextKey {
  return Object.prototype.hasOwnProperty.call(STRINGS, key);
}

/** Formats a number the way the language writes it (ro: 12.345; en: 12,345). */
export function formatNumber(n: number, lang: Lang): string {
  if (n === Infinity) return t(lang, "usage.unlimited");
  return new Intl.NumberFormat(lang === "ro" ? "ro-RO" : "en-US", { maximumFractionDigits: 0 }).format(n);
}

/** "1 credit", "5 credite", "20 de credite" / "1 credit", "5 credits". */
export function count(n: number, noun: "credit" | "cell" | "formula" | "answer", lang: Lang): string {
  const [one, many] = t(lang, `noun.${noun}`).split("|");
  const num = formatNumber(n, lang);
  if (n === 1) return `${num} ${one}`;
  if (lang === "ro" && n !== 0 && (n % 100 === 0 || n % 100 >= 20)) return `${num} de ${many}`;
  return `${num} ${many}`;
}

/** The text for a key, with `{name}` placeholders filled in (numbers formatted). */
export function t(lang: Lang, key: TextKey | `noun.${string}`, vars: Record<string, string | number> = {}): string {
  const entry = (STRINGS as Record<string, readonly [string, string]>)[key];
  if (!entry) throw new Error(`FIRMA pane: no text for ${key}`);
  const text = entry[lang === "en" ? 1 : 0];
  return text.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = vars[name];
    if (v === undefined) return `{${name}}`;
    return typeof v === "number" ? formatNumber(v, lang) : v;
  });
}

/**
 * Fills the page's texts: `data-i18n` → textContent, `data-i18n-placeholder`,
 * `data-i18n-aria-label` and `data-i18n-title` → those attributes; sets `<html lang>`.
 */
export function applyTexts(root: Document, lang: Lang): void {
  root.documentElement.lang = lang;
  const fill = (attr: string, set: (el: Element, text: string) => void) => {
    root.querySelectorAll(`[${attr}]`).forEach((el) => {
      const key = el.getAttribute(attr) ?? "";
      if (isTextKey(key)) set(el, t(lang, key));
    });
  };
  fill("data-i18n", (el, text) => (el.textContent = text));
  fill("data-i18n-placeholder", (el, text) => el.setAttribute("placeholder", text));
  fill("data-i18n-aria-label", (el, text) => el.setAttribute("aria-label", text));
  fill("data-i18n-title", (el, text) => el.setAttribute("title", text));
}
