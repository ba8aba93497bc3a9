/**
 * What the pane's flows say, in Romanian: search (search.*), add columns (columns.*), match a column
 * of names (match.*) and what they share (flow.*). Loaded with the flows, not at the pane's start;
 * English is in texts-en.ts under the same keys (test/taskpane/flow-texts.test.ts). The conventions
 * are the pane catalog's (src/shared/messages/ro.ts).
 */
export const flowRo = {
  // search
  "search.hint":
    "Căutarea pornește doar la Enter sau la Caută: 1 credit pe pagină, nimic dacă aceeași căutare e în cache. Un CUI se verifică local și se aduce fișa firmei.",
  "search.resultsLabel": "Rezultatele căutării",
  "search.cost.search": "Enter caută: 1 credit (o pagină de până la {limit} de firme).",
  "search.cost.cached": "Enter caută: gratuit, căutarea este în cache.",
  "search.cost.cui": "CUI valid: Enter aduce fișa firmei, {credits}.",
  "search.cost.cuiCached": "CUI valid: Enter arată fișa firmei, gratuit (din cache).",
  "search.tooShort": "Scrieți cel puțin 2 caractere: o denumire, un CUI sau un nr. de înregistrare.",
  "search.badCui": "{input} nu este un CUI valid (cifra de control nu se potrivește). Nu s-a trimis nimic.",
  "search.searching": "Se caută…",
  "search.cuiNotFound": "Nicio firmă cu acest CUI.",
  "search.none": "Nicio firmă găsită. Încercați mai puține cuvinte sau fără județ.",
  "search.found": "Rezultate: {results}. Un clic pe denumire pune CUI-ul în celula activă.",
  "search.foundMore":
    "Primele rezultate: {results}. Un clic pe denumire pune CUI-ul în celula activă; Mai multe aduce până la 100 (1 credit).",
  "search.more": "Mai multe (1 credit)",
  "search.pickLabel": "Alege {name} pentru inserare",
  "search.insertLabel": "Pune CUI-ul {cui} ({name}) în celula activă",
  "search.insertPicked": "Inserează alese ({n}) în jos de la celula activă",
  "search.inserted": "CUI-urile au fost puse în {cells}, de la celula activă în jos.",
  "search.insertedCards": "Fișele FIRMA.FISA au fost puse în {cells}, de la celula activă în jos.",

  // add columns
  "columns.intro":
    "Selectați o coloană de CUI-uri (sau de fișe, sau denumirile potrivite cu coloana lor de CUI alături), bifați ce vreți, apoi Adaugă coloane. Coloanele se scriu în dreapta selecției, cu un rând de antet.",
  "columns.items": "Ce se adaugă (* pe an)",
  "columns.item.card": "Fișa firmei (FISA)",
  "columns.item.fetched": "Data aducerii",
  "columns.years": "Anii indicatorilor financiari",
  "columns.yearFrom": "De la anul",
  "columns.yearTo": "Până la anul",
  "columns.yearsHint": "Gol: ultimul an disponibil. Un interval adaugă o coloană pe an, cel mai recent primul.",
  "columns.mode": "Cum se scriu",
  "columns.modeFormulas": "Formule FIRMA (se actualizează)",
  "columns.modeValues": "Valori fixe (fișa rămâne doar ca formulă)",
  "columns.readFirst": "Selectați coloana de CUI-uri și apăsați Citește selecția.",
  "columns.tickSome": "Bifați cel puțin o coloană.",
  "columns.badYears": "Anii trebuie să fie între 1990 și 2100, cel mult 20 de ani.",
  "columns.noCuis": "Selecția nu conține niciun CUI valid. Pentru o coloană de denumiri folosiți Potrivește o coloană de denumiri.",
  "columns.source": "{address}: rânduri {rows}, CUI-uri valide {valid}.",
  "columns.cost": "Coloane × rânduri: {columns} × {rows}. Cost: {credits}, cât ar costa aceleași formule scrise de mână.",
  "columns.costAtMost":
    "Coloane × rânduri: {columns} × {rows}. Cost: între {low} și {credits}, cât ar costa aceleași formule scrise de mână.",
  "columns.fetching": "Se aduc datele (cel mult {credits})…",
  "columns.doneFormulas": "Coloane de formule adăugate: {columns} × {rows} rânduri. Cost: {credits}.",
  "columns.doneValues": "Coloane de valori fixe adăugate: {columns} × {rows} rânduri. Cost: {credits}.",
  "columns.errors": "{cells} arată o eroare (un CUI greșit sau o firmă negăsită): indicați celula pentru mesaj.",
  "linked.heading": "Firme legate (tipul de date Firmă)",
  "linked.intro":
    "Transformă CUI-urile, fișele FISA sau CUI-urile potrivite din selecție în firme legate: Excel arată fișa, =A2.Denumire citește un câmp, Date → Reîmprospătare totală le actualizează, iar valorile rămân în registru și fără FIRMA.",
  "linked.convert": "Transformă în firme legate",
  "linked.yes": "Transformă",
  "linked.fisa": "Folosește formule FIRMA.FISA",
  "linked.confirm": "{cells} devin firme legate (CUI-ul e înlocuit de firmă). Cost: cel mult {credits}, cât ar costa aceleași celule FISA.",
  "linked.done": "{cells} transformate în firme legate. Cost: {credits}.",
  "linked.otherEdition":
    "Firmele legate vin cu ediția FIRMA pentru tipul de date Firmă (manifest-legate.xml), pe care o instalează administratorul; acest FIRMA e ediția obișnuită. Folosiți în schimb formule FIRMA.FISA.",
  "linked.registerFailed":
    "Excel nu a înregistrat tipul de date Firmă ({code}: {message}), deci nu s-a cheltuit și nu s-a scris nimic. Folosiți în schimb formule FIRMA.FISA.",
  "linked.unsupported":
    "Acest Excel nu are tipuri de date legate pentru add-in-uri (cer Excel desktop cu ExcelApi 1.19; Excel pe web nu le are). Folosiți în schimb formule FIRMA.FISA.",
  "columns.noHeader": "Selecția începe pe primul rând: nu a rămas loc pentru antet.",

  // match a column of names
  "match.intro":
    "Selectați o coloană de denumiri (și, opțional, coloana de județe din dreapta ei). Se scriu alături CUI-ul, denumirea oficială și cât de sigură este potrivirea; doar potrivirile sigure primesc CUI.",
  "match.go": "Potrivește",
  "match.progressLabel": "Potrivirea denumirilor",
  "match.numbers": "Selecția conține numere, nu denumiri. Pentru o coloană de CUI-uri folosiți Adaugă coloane.",
  "match.noNames": "Selecția nu conține nicio denumire.",
  "match.estimate":
    "Denumiri: {names}; căutări distincte: {distinct} (din cache, gratuite: {cached}); cu probleme, gratuite: {invalid}. Cost: între {min} și {credits}.",
  "match.estimateExact":
    "Denumiri: {names}; căutări distincte: {distinct} (din cache, gratuite: {cached}); cu probleme, gratuite: {invalid}. Cost: {credits}.",
  "match.overGuard": "Potrivirea poate costa până la {credits}, peste limita dvs. de {limit} pentru un calcul. Continuați?",
  "match.cancelled": "Nu s-a căutat nimic.",
  "match.running": "Se caută denumirile…",
  "match.col.cui": "CUI",
  "match.col.name": "Denumire oficială",
  "match.col.confidence": "Potrivire",
  "match.word.sure": "sigur",
  "match.word.likely": "probabil",
  "match.word.ambiguous": "ambiguu",
  "match.word.notFound": "negăsit",
  "match.word.notSearched": "necăutat",
  "match.word.chosen": "ales",
  "match.stop.budget": "s-a atins bugetul confirmat",
  "match.stop.quota": "creditele planului s-au epuizat",
  "match.stop.guard": "limita de credite pentru un calcul",
  "match.stop.plan": "planul nu permite căutarea",
  "match.stop.key": "cheia API lipsește sau nu este validă",
  "match.stop.service": "serviciul nu a răspuns",
  "match.stop.aborted": "oprită",
  "match.problem.empty": "celulă goală",
  "match.problem.notText": "nu este text",
  "match.problem.tooShort": "prea scurtă",
  "match.problem.onlyLegalForm": "doar forma juridică",
  "match.problem.unknownCounty": "județ necunoscut: {detail}",
  "match.done":
    "Gata. Sigure: {sure}; probabile: {likely}; ambigue: {ambiguous}; negăsite: {notFound}; necăutate: {notSearched}. Cost: {credits}.",
  "match.chooseHeading": "De ales",
  "match.chooseSummary":
    "Rânduri care așteaptă o alegere: {rows} (primele {listed} mai jos). Un clic pe o firmă scrie CUI-ul și denumirea ei.",
  "match.rowName": "Rândul {row}: {name} ({word})",
  "match.candidatesFor": "Firme posibile pentru {name}",
  "match.chosen": "Rândul {row}: {name}, CUI {cui}.",

  // shared by the flows
  "flow.readSelection": "Citește selecția",
  "flow.excelOnly": "Aceasta funcționează doar în Excel.",
  "flow.unsupported": "Această versiune de Excel nu are {set}, de care este nevoie aici; funcțiile FIRMA din celule merg.",
  "flow.overwrite": "{cells} din locul unde s-ar scrie nu sunt goale. Le înlocuiți?",
  "flow.replace": "Înlocuiește",
  "flow.keep": "Nu, păstrează",
  "flow.continue": "Da, continuă",
  "flow.stop": "Nu",
  "flow.notWritten": "Nu s-a scris nimic.",
  "flow.writeFailed": "Scrierea în registru nu a reușit ({code}). Celulele au rămas cum erau, sau scrise doar în parte.",
  "flow.tooDear": "Ar costa {credits}, mai mult decât cele {left} rămase. Selectați mai puține rânduri.",
  "flow.problem.severalAreas": "Selecția are mai multe zone. Selectați o singură coloană continuă.",
  "flow.problem.protected":
    "Foaia este protejată: FIRMA nu poate scrie în ea. Anulați protecția foii (Revizuire › Anulare protecție foaie) și încercați din nou.",
  "flow.problem.hiddenRows":
    "Selecția are rânduri ascunse (de un filtru sau de mână). FIRMA nu lucrează pe rânduri pe care nu le vedeți: ar scrie și pe ele. Afișați toate rândurile și selectați din nou.",
  "flow.problem.table":
    "Selecția, sau coloanele din dreapta ei unde s-ar scrie, sunt într-un tabel Excel. FIRMA nu scrie în tabele: convertiți tabelul în zonă (Proiectare tabel › Conversie în zonă) sau copiați datele într-o zonă obișnuită.",
  "flow.problem.tooWide": "Selecția are prea multe coloane (cel mult {max}).",
  "flow.problem.empty": "Selecția este goală.",
  "flow.problem.noRoom": "Nu e loc în dreapta selecției pentru coloanele noi.",
  "flow.problem.tooMany": "Prea multe rânduri (cel mult {max}). Pentru registre mari folosiți firma refresh.",
  // watch these companies (the firm's server), my lists, changes since the last visit
  "watch.intro":
    "Serverul firmei verifică firmele listelor dvs. după programul lui și vă arată aici ce s-a schimbat: stare, TVA, denumire, adresă, județ, CAEN, nr. de înregistrare. Listele se plătesc din bugetul dvs. lunar de pe serverul firmei.",
  "watch.add.heading": "Urmărește aceste firme",
  "watch.add.hint":
    "Selectați o coloană de CUI-uri, scrieți numele listei (una nouă sau una a dvs.) și apăsați Urmărește aceste firme. Costul pe lună se arată înainte de a adăuga.",
  "watch.add.name": "Numele listei",
  "watch.add.go": "Urmărește aceste firme",
  "watch.add.yes": "Da, urmărește",
  "watch.add.noName": "Scrieți numele listei: litere, cifre, puncte, cratime sau liniuțe jos, fără spații (de exemplu clienti).",
  "watch.add.badName": "Numele „{name}” nu este acceptat: 1–64 de litere, cifre, puncte, cratime sau liniuțe jos, fără spații.",
  "watch.add.invalid":
    "Coloana {column} are valori care nu sunt CUI-uri valide ({n}): {rows}. Corectați-le sau lăsați-le în afara selecției; nu s-a trimis nimic.",
  "watch.add.row": "rândul {row} („{text}”)",
  "watch.add.more": "și încă {n}",
  "watch.add.tooMany": "Cel mult {max} de firme odată; nu s-a trimis nimic.",
  "watch.add.asking": "Se cere serverului firmei costul pe lună…",
  "watch.add.confirmNew":
    "Lista nouă {list}, a dvs.: {companies}. Cost pe lună: {month} ({checks} zile cu verificare × {perCheck}, plus {financial} pentru anul financiar). Cu celelalte liste ale dvs., cel puțin {total} din bugetul lunar de {budget}. Urmăriți?",
  "watch.add.confirmMore":
    "Lista dvs. {list}: {adding} noi ({already} deja urmărite), {companies} în total. Cost pe lună: {month} ({checks} zile cu verificare × {perCheck}, plus {financial} pentru anul financiar). Cu celelalte liste ale dvs., cel puțin {total} din bugetul lunar de {budget}. Adăugați?",
  "watch.add.nothingNew": "Toate cele {companies} sunt deja în lista {list}; nu s-a trimis nimic.",
  "watch.add.done":
    "Lista {list} urmărește acum {companies}. Prima verificare doar notează valorile de pornire; schimbările de după apar mai jos.",
  "watch.add.cancelled": "Nu s-a adăugat nimic.",
  "watch.problem.hiddenRows":
    "Selecția are rânduri ascunse (de un filtru sau de mână): s-ar urmări și firmele de pe ele. Afișați toate rândurile sau selectați doar firmele dorite.",
  "watch.noToken": "Urmărirea firmelor cere tokenul personal de la serverul firmei (firma_…), salvat în locul cheii.",
  "watch.unreachable": "Serverul firmei nu răspunde acum; încercați din nou peste puțin timp.",
  "watch.refused": "Serverul firmei a refuzat ({status}): {message}",
  "watch.reload": "Reîncarcă",
  "watch.lists.heading": "Listele mele",
  "watch.lists.loading": "Se citesc listele…",
  "watch.lists.none": "Nu aveți încă nicio listă: selectați CUI-uri și apăsați Urmărește aceste firme.",
  "watch.lists.shown": "Listele dvs.: {n}.",
  "watch.lists.following": "Listele firmei care vă anunță (doar de citit)",
  "watch.list.line": "{companies} · verificare: {schedule} · {month} pe lună",
  "watch.list.serverSchedule": "programul serverului ({schedule})",
  "watch.list.never": "Încă neverificată.",
  "watch.list.checked": "Ultima verificare: {at}, {changes}.",
  "watch.list.incomplete": "Ultima verificare: {at}, INCOMPLETĂ ({reason}): {unknown} nu au putut fi verificate.",
  "watch.list.stopped": "Oprită: {reason}.",
  "watch.list.members": "Firmele",
  "watch.list.membersLabel": "Firmele listei {list}",
  "watch.list.remove": "Șterge lista",
  "watch.list.removeLabel": "Șterge lista {list}",
  "watch.list.removeConfirm": "Ștergeți lista {list} ({companies})? Serverul nu le mai verifică; schimbările găsite până acum rămân.",
  "watch.list.removed": "Lista {list} a fost ștearsă.",
  "watch.remove.yes": "Da, șterge",
  "watch.members.removeTicked": "Scoate firmele bifate",
  "watch.members.pick": "Scoate {cui} {name} din listă",
  "watch.members.tickSome": "Bifați firmele de scos din listă.",
  "watch.members.confirm": "Scoateți {companies} din lista {list}? Serverul nu le mai verifică.",
  "watch.members.removed": "Scoase din lista {list}: {companies}.",
  "watch.changes.heading": "Schimbări pentru dvs. de la ultima vizită",
  "watch.changes.none": "Nicio schimbare de la ultima vizită.",
  "watch.changes.found": "{changes} de la ultima vizită.",
  "watch.changes.foundMore": "Primele {changes} de la ultima vizită; după Marchează ca văzute urmează celelalte.",
  "watch.col.when": "Când",
  "watch.col.list": "Lista",
  "watch.changes.seen": "Marchează ca văzute",
  "watch.changes.marked": "Schimbările au fost marcate ca văzute.",
} as const;

export type FlowKey = keyof typeof flowRo;
