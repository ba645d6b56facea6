<?xml version="1.0" encoding="UTF-8"?>
<!--
  Vitrine default theme: a gallery's "What's new" pages (kept with history = true).
  $page is the @id of the gallery's <history> element ('changes'); $root is the prefix to the output root.
  One page per run of snapshots (history/@page; 1 is the oldest), one section per <snapshot> on it, newest
  first: when, how many items came and left, and the tiles of the items it added that the gallery still has
  (the same tiles as the grid, from grid.xsl); then the pager (layout.xsl's history-pager).
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <xsl:import href="grid.xsl"/>

  <xsl:output method="html" encoding="UTF-8" indent="no" doctype-system="about:legacy-compat"/>

  <xsl:template match="history" mode="body-class">changes-page</xsl:template>

  <xsl:template match="history" mode="title">
    <xsl:text>What’s new</xsl:text>
    <xsl:call-template name="history-title-page"/>
    <xsl:text> — </xsl:text>
    <xsl:value-of select="/gallery/title"/>
  </xsl:template>

  <!-- The card: what the page says of its newest snapshot, and the first of its tiles that may be copied. A source
       whose terms limit its photos on a page (Flickr) has only the first tiles of its newest snapshot sure to be
       shown: the card's picture is one of those. -->
  <xsl:template match="history" mode="card">
    <xsl:if test="$base-url">
      <xsl:variable name="title"><xsl:apply-templates select="." mode="title"/></xsl:variable>
      <xsl:variable name="description">
        <xsl:call-template name="history-count"/>
        <xsl:for-each select="snapshot[1]">
          <xsl:value-of select="concat(' · ', @label, ': ')"/>
          <xsl:call-template name="change-line"/>
        </xsl:for-each>
      </xsl:variable>
      <xsl:variable name="most" select="number(/gallery/source/@most-per-page)"/>
      <xsl:variable name="items" select="key('by-id', snapshot[1]/added/@item)[not($most &gt;= 0) or position() &lt;= $most] | key('by-id', snapshot[position() &gt; 1]/added/@item)[not($most &gt;= 0)]"/>
      <xsl:call-template name="preview-card">
        <xsl:with-param name="title" select="$title"/>
        <xsl:with-param name="description" select="$description"/>
        <xsl:with-param name="image" select="($items/entry[not(missing)][1][license/@copies = 'allowed']/image[@role = 'tile'][@src or @url])[1]"/>
      </xsl:call-template>
    </xsl:if>
  </xsl:template>

  <xsl:template match="history" mode="main">
    <div class="intro">
      <h1>What’s new</h1>
      <p class="count">
        <xsl:call-template name="history-count"/>
        <xsl:text> · </xsl:text>
        <a href="{concat($root, $home-href)}">All images</a>
      </p>
    </div>
    <xsl:choose>
      <xsl:when test="snapshot">
        <xsl:for-each select="snapshot">
          <section class="snapshot" id="snapshot-{@number}" aria-labelledby="snapshot-{@number}-title">
            <h2 id="snapshot-{@number}-title"><time datetime="{@time}"><xsl:value-of select="@label"/></time></h2>
            <p class="count"><xsl:call-template name="change-line"/></p>
            <!-- A source whose terms limit its photos on a page (Flickr: 30) has its newest tiles shown, up to that. -->
            <xsl:variable name="most" select="number(/gallery/source/@most-per-page)"/>
            <xsl:variable name="room" select="$most - count(preceding-sibling::snapshot/added)"/>
            <xsl:variable name="all" select="key('by-id', added/@item)"/>
            <xsl:variable name="tiles" select="$all[not(/gallery/source/@most-per-page) or position() &lt;= $room]"/>
            <xsl:if test="$tiles">
              <ol class="grid">
                <xsl:apply-templates select="$tiles" mode="tile"/>
              </ol>
            </xsl:if>
            <xsl:if test="count($tiles) &lt; count($all)">
              <p class="count">
                <xsl:value-of select="$source-label"/>
                <xsl:text>’s terms allow </xsl:text>
                <xsl:value-of select="$most"/>
                <xsl:text> of its photos on a page: the other new ones are in the gallery.</xsl:text>
              </p>
            </xsl:if>
          </section>
        </xsl:for-each>
      </xsl:when>
      <xsl:otherwise>
        <p class="empty">Nothing has changed yet.</p>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:call-template name="history-pager"/>
  </xsl:template>

  <!-- Context: a <snapshot>. "3 new images, 1 gone; 1 of the new ones has left since". -->
  <xsl:template name="change-line">
    <xsl:value-of select="@added"/>
    <xsl:choose>
      <xsl:when test="@added = 1"> new image</xsl:when>
      <xsl:otherwise> new images</xsl:otherwise>
    </xsl:choose>
    <xsl:text>, </xsl:text>
    <xsl:value-of select="@removed"/>
    <xsl:text> gone</xsl:text>
    <xsl:variable name="left" select="number(@added) - count(added)"/>
    <xsl:if test="$left &gt; 0">
      <xsl:text>; </xsl:text>
      <xsl:value-of select="$left"/>
      <xsl:text> of the new ones </xsl:text>
      <xsl:choose>
        <xsl:when test="$left = 1">has</xsl:when>
        <xsl:otherwise>have</xsl:otherwise>
      </xsl:choose>
      <xsl:text> left since</xsl:text>
    </xsl:if>
  </xsl:template>

</xsl:stylesheet>
