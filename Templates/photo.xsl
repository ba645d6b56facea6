<?xml version="1.0" encoding="UTF-8"?>
<!--
  Vitrine default theme: one photo page, an <entry> of a collection of kind "album".
  The image fills the screen; the toolbar (back link, breadcrumb, previous/next) is on top
  and a details panel (photo title, album title, user name) at the bottom. vitrine.js lets
  a tap on the image hide or show both; without JavaScript they stay visible.
  $page is the @id of the <entry>; $root leads back to the output root.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <xsl:import href="layout.xsl"/>

  <xsl:output method="html" encoding="UTF-8" indent="no" doctype-system="about:legacy-compat"/>

  <xsl:template match="entry" mode="body-class">photo-page</xsl:template>

  <xsl:template match="entry" mode="title">
    <xsl:call-template name="caption-or-position"/>
    <xsl:text> — </xsl:text>
    <xsl:for-each select="../..">
      <xsl:call-template name="collection-name"/>
    </xsl:for-each>
  </xsl:template>

  <xsl:template match="entry" mode="bar">
    <xsl:call-template name="toolbar"/>
  </xsl:template>

  <!-- Previous and next photo of the album, after the breadcrumb. -->
  <xsl:template match="entry" mode="toolbar-extra">
    <xsl:variable name="prev" select="../preceding-sibling::item[1]/entry[@variant = current()/@variant]"/>
    <xsl:variable name="next" select="../following-sibling::item[1]/entry[@variant = current()/@variant]"/>
    <span class="steps">
      <span class="pos">
        <xsl:value-of select="../@position"/>
        <xsl:text> / </xsl:text>
        <xsl:value-of select="../../@item-count"/>
      </span>
      <xsl:call-template name="photo-step">
        <xsl:with-param name="to" select="$prev"/>
        <xsl:with-param name="rel" select="'prev'"/>
      </xsl:call-template>
      <xsl:call-template name="photo-step">
        <xsl:with-param name="to" select="$next"/>
        <xsl:with-param name="rel" select="'next'"/>
      </xsl:call-template>
    </span>
  </xsl:template>

  <xsl:template name="photo-step">
    <xsl:param name="to"/>
    <xsl:param name="rel"/>
    <xsl:variable name="arrow">
      <xsl:choose>
        <xsl:when test="$rel = 'prev'">←</xsl:when>
        <xsl:otherwise>→</xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <xsl:variable name="word">
      <xsl:choose>
        <xsl:when test="$rel = 'prev'">Previous photo</xsl:when>
        <xsl:otherwise>Next photo</xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <xsl:choose>
      <xsl:when test="$to">
        <xsl:variable name="img" select="($to/image[@role = 'full'][@src or @url] | $to/image[@src or @url])[1]"/>
        <a class="step" rel="{$rel}" href="{concat($root, $to/@href)}">
          <xsl:if test="$img">
            <xsl:attribute name="data-prefetch"><xsl:call-template name="image-href"><xsl:with-param name="img" select="$img"/></xsl:call-template></xsl:attribute>
          </xsl:if>
          <span aria-hidden="true"><xsl:value-of select="$arrow"/></span>
          <span class="vh"><xsl:value-of select="$word"/></span>
        </a>
      </xsl:when>
      <xsl:otherwise>
        <span class="step off">
          <span aria-hidden="true"><xsl:value-of select="$arrow"/></span>
          <span class="vh"><xsl:value-of select="$word"/> (none)</span>
        </span>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template match="entry" mode="main">
    <xsl:variable name="album" select="../.."/>
    <xsl:variable name="owner" select="$album/parent::collection"/>
    <div class="photo-stage" data-toggle-chrome="" data-swipe="">
      <xsl:call-template name="image">
        <xsl:with-param name="role" select="'full'"/>
        <xsl:with-param name="eager" select="true()"/>
      </xsl:call-template>
    </div>
    <section class="details" aria-labelledby="photo-title">
      <h1 id="photo-title" dir="auto"><xsl:call-template name="caption-or-position"/></h1>
      <dl>
        <dt>Album</dt>
        <dd>
          <a href="{concat($root, $album/page[@number = current()/../@page]/@href, '#', ../@id)}">
            <xsl:for-each select="$album"><xsl:call-template name="collection-name"/></xsl:for-each>
          </a>
        </dd>
        <xsl:if test="$owner/parent::collection">
          <dt>User</dt>
          <dd>
            <a href="{concat($root, $owner/page[1]/@href)}">
              <xsl:for-each select="$owner"><xsl:call-template name="collection-name"/></xsl:for-each>
            </a>
            <xsl:if test="normalize-space($owner/@subtitle) != ''">
              <xsl:text> (</xsl:text>
              <xsl:value-of select="normalize-space($owner/@subtitle)"/>
              <xsl:text>)</xsl:text>
            </xsl:if>
          </dd>
        </xsl:if>
      </dl>
      <xsl:call-template name="credit">
        <xsl:with-param name="full" select="true()"/>
      </xsl:call-template>
    </section>
  </xsl:template>

</xsl:stylesheet>
