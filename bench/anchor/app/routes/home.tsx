export function meta() {
  return [{ title: 'New React Router App' }, { name: 'description', content: 'Welcome to React Router!' }];
}

export default function Home() {
  return (
    <main>
      <h1>Welcome to React Router</h1>
      <nav aria-label="Resources">
        <p>What&apos;s next?</p>
        <ul>
          <li>
            <a href="https://reactrouter.com/docs">React Router Docs</a>
          </li>
          <li>
            <a href="https://rmx.as/discord">Join Discord</a>
          </li>
        </ul>
      </nav>
    </main>
  );
}
