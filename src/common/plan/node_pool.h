// NodePool: the nodes of an unordered map or set kept across a clear and a refill, so that the
// refill allocates none. A plan made afresh refills the keeper's map of pending jobs and the
// planner's set of their ids with every pending job: allocating and freeing those nodes was 5 %
// of ostrich/conservative. The container ends as clear() and emplace() would leave it, in the
// same iteration order (same buckets, same insertions).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace campaign::plan
{

template <typename Container> class NodePool
{
public:
	// A copy keeps no nodes (they are spare storage): the planner and its keeper are copied.
	NodePool() = default;
	NodePool(const NodePool &) {}
	NodePool &operator=(const NodePool &)
	{
		nodes_.clear();
		return *this;
	}
	NodePool(NodePool &&) = default;
	NodePool &operator=(NodePool &&) = default;

	// Empties `container`, as clear() does, keeping its nodes here.
	void clear(Container &container)
	{
		while (!container.empty())
			nodes_.push_back(container.extract(container.begin()));
	}
	// container.try_emplace(key) for a map, on a kept node if there is one: an inserted
	// node's value may be a kept one's, for the caller to set.
	template <typename Key>
	std::pair<typename Container::iterator, bool> try_emplace(Container &container,
	                                                          const Key &key)
	{
		if (nodes_.empty())
			return container.try_emplace(key);
		return insert_kept(container,
		                   [&](typename Container::node_type &node) { node.key() = key; });
	}
	// container.insert(key) for a set, on a kept node if there is one.
	template <typename Key>
	std::pair<typename Container::iterator, bool> insert(Container &container, const Key &key)
	{
		if (nodes_.empty())
			return container.insert(key);
		return insert_kept(
		    container, [&](typename Container::node_type &node) { node.value() = key; });
	}
	size_t kept() const { return nodes_.size(); }

private:
	// Inserts the last kept node, its key set by set_key (a map's key(), a set's value()).
	template <typename SetKey>
	std::pair<typename Container::iterator, bool> insert_kept(Container &container,
	                                                          SetKey &&set_key)
	{
		typename Container::node_type &node = nodes_.back();
		set_key(node);
		auto inserted = container.insert(std::move(node));
		nodes_.pop_back();
		return {inserted.position, inserted.inserted};
	}

	std::vector<typename Container::node_type> nodes_;
};

} // namespace campaign::plan
