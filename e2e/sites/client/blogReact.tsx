/**
 * The blog's editor as a React app with controlled inputs: the page's model is React state, and
 * what gets published comes from that state, not from the DOM. A write that only changes the DOM
 * value is thrown away by React on the next render.
 */
import { useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';

interface PostState {
  title: string;
  body: string;
  category: string;
}

function PostEditor() {
  const [post, setPost] = useState<PostState>({ title: '', body: '', category: 'daily' });
  const [status, setStatus] = useState('');
  const latest = useRef(post);
  latest.current = post;
  useEffect(() => {
    (window as unknown as { blogEditor: unknown }).blogEditor = {
      kind: 'react',
      getBody: () => latest.current.body,
      getTitle: () => latest.current.title,
      state: () => ({ ...latest.current }),
    };
  }, []);

  const publish = async () => {
    const response = await fetch('/api/posts', { method: 'POST', body: JSON.stringify(latest.current) });
    if (response.status !== 201) {
      setStatus('Could not publish: sign in again.');
      return;
    }
    const created = (await response.json()) as { id: number };
    location.href = `/posts/${created.id}`;
  };

  return (
    <form id="post-form" data-editor="react" onSubmit={(event) => event.preventDefault()}>
      <h1>New post</h1>
      <label htmlFor="post-title">Title</label>
      <input id="post-title" value={post.title} onChange={(event) => setPost({ ...post, title: event.target.value })} />
      <label htmlFor="post-category">Category</label>
      <select id="post-category" value={post.category} onChange={(event) => setPost({ ...post, category: event.target.value })}>
        <option value="daily">Daily</option>
        <option value="notes">Notes</option>
        <option value="reviews">Reviews</option>
      </select>
      <label htmlFor="post-body">Body</label>
      {/* Upper-cases nothing, but normalizes tabs: the model, not the DOM, decides what is kept. */}
      <textarea id="post-body" rows={12} value={post.body} onChange={(event) => setPost({ ...post, body: event.target.value.replace(/\t/g, '  ') })} />
      <div className="actions">
        <button type="button" id="save-draft-button" onClick={() => setStatus('Draft saved.')}>
          Save draft
        </button>{' '}
        <button type="button" id="publish-button" onClick={() => void publish()}>
          Publish
        </button>
      </div>
      <p className="status" aria-live="polite">
        {status}
      </p>
    </form>
  );
}

const root = document.querySelector('#react-root');
if (root) createRoot(root).render(<PostEditor />);
