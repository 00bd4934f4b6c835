import { ReactNode, useEffect, useRef, useState } from 'react';
import { atLeast } from './api';
import { navigate, Route, useRoute } from './hooks';
import { AdminPage, LoginPage, PasswordPage, SignupPage } from './pages/account';
import { BenchmarkPage, EvaluationSetPage, EvaluationSetsPage } from './pages/evaluations';
import { JobPage, JobsPage } from './pages/jobs';
import {
  DatasetsPage,
  ExperimentRunPage,
  ExperimentRunsPage,
  RerankersPage,
  ShowcasePage,
  StackPage,
  SupportPage,
} from './pages/misc';
import { PredictedProteinPage, PredictionSetPage, PredictionSetsPage } from './pages/predictions';
import { AnnotatePage, QuerySetPage, QuerySetsPage } from './pages/query-sets';
import {
  AnnotationSetsPage,
  EmbeddingConfigsPage,
  ProteinPage,
  ProteinsPage,
  SnapshotPage,
  SnapshotsPage,
} from './pages/reference';
import { useSession } from './session';
import { PageHeader } from './ui';

const NAV: { to: string; label: string; group: string }[] = [
  { to: '/', label: 'Showcase', group: 'Overview' },
  { to: '/annotate', label: 'Annotate', group: 'Overview' },
  { to: '/jobs', label: 'Jobs', group: 'Overview' },
  { to: '/proteins', label: 'Proteins', group: 'Reference data' },
  { to: '/ontology', label: 'Ontology', group: 'Reference data' },
  { to: '/annotation-sets', label: 'Annotation sets', group: 'Reference data' },
  { to: '/query-sets', label: 'Query sets', group: 'Reference data' },
  { to: '/embedding-configs', label: 'Embedding configs', group: 'Predictions' },
  { to: '/prediction-sets', label: 'Prediction sets', group: 'Predictions' },
  { to: '/rerankers', label: 'Re-rankers', group: 'Predictions' },
  { to: '/evaluation-sets', label: 'Evaluations', group: 'Evaluation' },
  { to: '/benchmark', label: 'Benchmark', group: 'Evaluation' },
  { to: '/datasets', label: 'Datasets', group: 'Evaluation' },
  { to: '/experiment-runs', label: 'Experiment runs', group: 'Evaluation' },
  { to: '/stack', label: 'Stack', group: 'About' },
  { to: '/support', label: 'Support', group: 'About' },
];

function page(route: Route): ReactNode {
  const [first = '', second, third, fourth] = route.segments;
  switch (first) {
    case '':
    case 'showcase':
      return <ShowcasePage />;
    case 'annotate':
      return <AnnotatePage runId={second} />;
    case 'jobs':
      return second ? <JobPage id={second} /> : <JobsPage />;
    case 'proteins':
      return second ? <ProteinPage accession={second} /> : <ProteinsPage />;
    case 'ontology':
      return second ? <SnapshotPage id={second} /> : <SnapshotsPage />;
    case 'annotation-sets':
      return <AnnotationSetsPage />;
    case 'query-sets':
      return second ? <QuerySetPage id={second} /> : <QuerySetsPage />;
    case 'embedding-configs':
      return <EmbeddingConfigsPage />;
    case 'prediction-sets':
      if (second && third === 'proteins' && fourth)
        return <PredictedProteinPage id={second} accession={fourth} />;
      return second ? <PredictionSetPage id={second} /> : <PredictionSetsPage />;
    case 'rerankers':
      return <RerankersPage />;
    case 'evaluation-sets':
      return second ? <EvaluationSetPage id={second} /> : <EvaluationSetsPage />;
    case 'benchmark':
      return <BenchmarkPage />;
    case 'datasets':
      return <DatasetsPage />;
    case 'experiment-runs':
      return second ? <ExperimentRunPage id={second} /> : <ExperimentRunsPage />;
    case 'stack':
      return <StackPage />;
    case 'support':
      return <SupportPage />;
    case 'login':
      return <LoginPage />;
    case 'signup':
      return <SignupPage />;
    case 'admin':
      return <AdminPage />;
    case 'password':
      return <PasswordPage />;
    default:
      return (
        <>
          <PageHeader title="Page not found" />
          <p>
            There is no page at <code>{route.path}</code>. <a href="#/">Back to the start</a>.
          </p>
        </>
      );
  }
}

function isCurrent(route: Route, to: string): boolean {
  const first = to.split('/')[1] ?? '';
  return first === '' ? route.segments.length === 0 : route.segments[0] === first;
}

function Account() {
  const { user, logout } = useSession();
  if (user === undefined) return null;
  if (user === null)
    return (
      <div className="account">
        <a href="#/login">Sign in</a> <a href="#/signup">Sign up</a>
      </div>
    );
  return (
    <div className="account">
      <span>
        {user.display_name} <span className="muted">({user.role})</span>
      </span>
      <a href="#/password">Password</a>
      {atLeast(user.role, 'admin') && <a href="#/admin">Admin</a>}
      <button
        type="button"
        className="linklike"
        onClick={() => {
          void logout().then(() => navigate('/'));
        }}
      >
        Sign out
      </button>
    </div>
  );
}

export function App() {
  const route = useRoute();
  const [menuOpen, setMenuOpen] = useState(false);
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);
  // A new page moves focus to its heading so that screen readers announce it and Tab starts there.
  useEffect(() => {
    setMenuOpen(false);
    if (first.current) {
      first.current = false;
      return;
    }
    const heading = main.current?.querySelector<HTMLElement>('#page-title');
    (heading ?? main.current)?.focus();
  }, [route.path]);
  const groups = [...new Set(NAV.map((n) => n.group))];
  return (
    <>
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          main.current?.focus();
        }}
      >
        Skip to content
      </a>
      <header className="topbar">
        <a className="brand" href="#/">
          Protein function
        </a>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="site-nav"
          onClick={() => setMenuOpen((open) => !open)}
        >
          Menu
        </button>
        <Account />
      </header>
      <div className="layout">
        <nav id="site-nav" className={menuOpen ? 'sidebar open' : 'sidebar'} aria-label="Dashboards">
          {groups.map((group) => (
            <div key={group}>
              <p className="nav-group" id={`nav-${group.replace(/\W+/g, '-').toLowerCase()}`}>
                {group}
              </p>
              <ul aria-labelledby={`nav-${group.replace(/\W+/g, '-').toLowerCase()}`}>
                {NAV.filter((n) => n.group === group).map((n) => (
                  <li key={n.to}>
                    <a href={`#${n.to}`} aria-current={isCurrent(route, n.to) ? 'page' : undefined}>
                      {n.label}
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          ))}
          <p className="nav-foot">
            <a href="/docs">API documentation</a>
          </p>
        </nav>
        <main id="main" ref={main} tabIndex={-1}>
          {page(route)}
        </main>
      </div>
    </>
  );
}
